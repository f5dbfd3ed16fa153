"""Batch work on local processes and on a real local Ray: the same games
whatever runs them, a killed worker replaced without losing or repeating a
game, a stopped run resumed, and a clear error when Ray is missing."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from tilebag.batch import ClusterError, Job, LocalBackend, backend_for, run_job
from tilebag.engine.analysis.batch import AnalysisJob, analyze_records
from tilebag.engine.bots.specs import parse_bot_spec
from tilebag.lab.leave_training import train_leaves
from tilebag.lab.match import MatchJob, PairResult, run_match
from tilebag.lab.selfplay import SelfplayJob, Summary, run_selfplay
from tilebag.rules import Rules


def _games(pairs: list[PairResult]) -> list[tuple[int, object, int, int]]:
    """What a pair played, without the seconds it took."""
    return [(p.seed, p.games, p.a_moves, p.b_moves) for p in pairs]


def test_a_match_plays_the_same_games_on_one_and_two_processes() -> None:
    one = run_match("static", "greedy", games=12, seed=40, workers=1, progress=False)
    two = run_match("static", "greedy", games=12, seed=40, workers=2, progress=False)
    assert _games(one.pairs) == _games(two.pairs) and len(one.pairs) == 6


def test_a_stopped_match_goes_on_from_its_results_file(tmp_path: Path) -> None:
    results = tmp_path / "pairs.jsonl"
    whole = run_match("static", "greedy", games=10, seed=7, workers=1, progress=False)
    first = run_match("static", "greedy", games=4, seed=7, workers=1, progress=False, results=results)
    assert len(first.pairs) == 2 and len(results.read_text().splitlines()) == 3  # a header, then the pairs
    with results.open("a") as out:
        out.write('{"seed": 9, "games": [')  # a line cut short by a stop is dropped, not trusted
    rest = run_match("static", "greedy", games=10, seed=7, workers=2, progress=False, results=results)
    assert _games(rest.pairs) == _games(whole.pairs)


def _selfplay_view(summary: Summary) -> list[tuple[str, float, int, int]]:
    return [(bot.name, bot.wins, bot.points, bot.bingos) for bot in summary.bots]


def test_selfplay_plays_the_same_games_on_one_and_two_processes_and_goes_on_after_a_stop(tmp_path: Path) -> None:
    one = run_selfplay(["static", "greedy"], games=8, seed=21, out=tmp_path / "one", workers=1, progress=False)
    part = run_selfplay(["static", "greedy"], games=3, seed=21, out=tmp_path / "two", workers=2, progress=False)
    assert part.games == 3
    two = run_selfplay(["static", "greedy"], games=8, seed=21, out=tmp_path / "two", workers=2, progress=False)
    assert _selfplay_view(one) == _selfplay_view(two) and two.games == 8
    for mine, theirs in zip(one.records, two.records, strict=True):
        assert mine.name == theirs.name and mine.read_text() == theirs.read_text()
    with pytest.raises(ValueError, match="another run"):
        run_selfplay(["static", "static"], games=8, seed=21, out=tmp_path / "two", progress=False)


@pytest.mark.slow
def test_analyze_takes_many_records_and_says_which_it_cannot_read(tmp_path: Path) -> None:
    summary = run_selfplay(["static", "greedy"], games=3, seed=60, out=tmp_path, workers=1, progress=False)
    broken = tmp_path / "broken.gcg"
    broken.write_text("#character-encoding UTF-8\n#player1 a A\n#player2 b B\n>a: XYZ 8D ZZZ +99 99\n")
    names = [str(path) for path in summary.records]

    def analyze(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "tilebag", "analyze", *names, str(broken), "--json", *extra],
                              capture_output=True, text=True, timeout=300)

    two, one = analyze("--workers", "2"), analyze("--workers", "1")
    assert two.returncode == 2 and "broken.gcg:4" in two.stderr and "Traceback" not in two.stderr
    lines = [json.loads(line) for line in two.stdout.splitlines()]
    assert [line["source"] for line in lines] == names and all(line["turns"] for line in lines)
    assert two.stdout == one.stdout
    results = tmp_path / "analyses.jsonl"
    kept = analyze("--workers", "2", "--results", str(results))
    assert kept.stdout == one.stdout and len(results.read_text().splitlines()) == 1 + len(names)
    results.write_text("".join(results.read_text().splitlines(keepends=True)[:2]))  # as if stopped after one
    again = analyze("--workers", "2", "--results", str(results))
    assert again.stdout == one.stdout and len(results.read_text().splitlines()) == 1 + len(names)


def test_a_results_file_of_another_match_is_refused(tmp_path: Path) -> None:
    results = tmp_path / "pairs.jsonl"
    run_match("static", "greedy", games=2, seed=1, workers=1, progress=False, results=results)
    with pytest.raises(ValueError, match="another run"):
        run_match("static", "beginner", games=2, seed=1, workers=1, progress=False, results=results)
    run = subprocess.run(
        [sys.executable, "-m", "tilebag", "match", "greedy", "static", "--games", "2", "--results", str(results)],
        capture_output=True, text=True,
    )
    assert run.returncode == 2 and "another run" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.slow
def test_a_local_worker_that_dies_is_replaced_and_its_games_played_again() -> None:
    spec = parse_bot_spec("static")
    seeds = list(range(100, 140))
    backend = LocalBackend(2)
    seen: Counter[int] = Counter()

    def finished(index: int, _pair: PairResult) -> None:
        if not seen and backend._pool is not None:  # the first result: kill a worker while the others play
            os.kill(next(iter(backend._pool._processes)), signal.SIGKILL)
        seen.update([index])

    run = run_job(MatchJob(spec, spec), seeds, backend, progress=False, on_result=finished)
    assert backend.restarts >= 1
    assert seen == Counter(range(len(seeds)))  # each pair once
    alone = run_job(MatchJob(spec, spec), seeds, LocalBackend(1), progress=False)
    assert _games([run.results[i] for i in range(len(seeds))]) == _games([alone.results[i] for i in range(len(seeds))])


class _CannotLoad(Job[int, int]):
    """A job whose workers cannot start (as when a cluster machine lacks the lexicon)."""

    def load(self) -> object:
        raise RuntimeError("no lexicon here")

    def run(self, state: object, item: int) -> int:
        return item


def test_workers_that_cannot_start_stop_the_run_with_a_clear_error() -> None:
    with pytest.raises(ClusterError, match="died .* times in a row"):
        run_job(_CannotLoad(), list(range(6)), LocalBackend(2, start_method="fork"), progress=False)


def test_without_ray_cluster_says_how_to_install_it(tmp_path: Path) -> None:
    fake = tmp_path / "ray"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ImportError('No module named ray')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    run = subprocess.run(
        [sys.executable, "-m", "tilebag", "match", "static", "greedy", "--games", "2", "--cluster", "auto"],
        capture_output=True, text=True, env=env,
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "pip install 'tilebag[cluster]'" in run.stderr
    with pytest.raises(ClusterError, match="expected local, auto"):
        backend_for("192.168.0.1:6379")


# -- a real local Ray --------------------------------------------------------------------------------------

needs_ray = pytest.mark.skipif(
    importlib.util.find_spec("ray") is None, reason="Ray is not installed: pip install 'tilebag[cluster]'"
)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.mark.slow
@needs_ray
def test_ray_plays_exactly_the_games_of_the_local_run(local_ray: None) -> None:
    local = run_match("static", "greedy", games=20, seed=500, workers=1, progress=False)
    on_ray = run_match("static", "greedy", games=20, seed=500, cluster="auto", workers=2, progress=False)
    assert len(on_ray.pairs) == 10 and _games(on_ray.pairs) == _games(local.pairs)
    assert on_ray.to_dict()["win_rate"] == local.to_dict()["win_rate"]
    here = run_selfplay(["static", "greedy"], games=6, seed=77, workers=1, progress=False)
    there = run_selfplay(["static", "greedy"], games=6, seed=77, cluster="auto", workers=2, progress=False)
    assert _selfplay_view(here) == _selfplay_view(there)
    job = SelfplayJob(("static", "greedy"), 77)
    bots = job.load()
    records = [(f"game {n}", job.play(bots, n)[0].record()) for n in range(3)]
    analysed_here, _ = analyze_records(records, AnalysisJob(top=3), LocalBackend(1), progress=False)
    analysed_there, _ = analyze_records(records, AnalysisJob(top=3), backend_for("auto", 2), progress=False)
    assert [a.data for a in analysed_here] == [a.data for a in analysed_there] and len(analysed_there) == 3


@pytest.mark.slow
@needs_ray
def test_leaves_trained_on_ray_are_the_table_trained_here(local_ray: None, tmp_path: Path) -> None:
    small = Rules(rack_size=4, bingo_tiles=4)  # leaves of at most three tiles: a quick table
    here = train_leaves(tmp_path / "here", games=6, generations=1, seed=3, workers=1, rules=small,
                        output=tmp_path / "here.klv")
    there = train_leaves(tmp_path / "there", games=6, generations=1, seed=3, workers=2, rules=small, cluster="auto",
                         output=tmp_path / "there.klv")
    assert here.games == there.games == 6
    assert (tmp_path / "here.klv").read_bytes() == (tmp_path / "there.klv").read_bytes()


@pytest.mark.slow
@needs_ray
def test_ray_workers_that_cannot_start_stop_the_run_with_a_clear_error(local_ray: None) -> None:
    import ray

    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import this test module
    with pytest.raises(ClusterError, match="died .* times in a row"):
        run_job(_CannotLoad(), list(range(6)), backend_for("auto", 2), progress=False)


@pytest.mark.slow
@needs_ray
def test_a_killed_ray_worker_is_replaced_and_every_game_reported_once(local_ray: None) -> None:
    import ray

    from tilebag.batch.ray_cluster import RayBackend

    spec = parse_bot_spec("static")
    seeds = list(range(900, 940))
    backend = RayBackend(None, 2)
    seen: Counter[int] = Counter()
    killed = threading.Event()

    def kill_one() -> None:
        while len(backend._actors) < 2:
            time.sleep(0.01)
        pid = ray.get(backend._actors[0].pid.remote())  # answered after the batch it is on
        os.kill(pid, signal.SIGKILL)
        killed.set()

    threading.Thread(target=kill_one, daemon=True).start()
    run = run_job(MatchJob(spec, spec), seeds, backend, progress=False, on_result=lambda i, _r: seen.update([i]))
    assert killed.is_set() and backend.replaced >= 1, "the worker was not killed during the run"
    assert seen == Counter(range(len(seeds))) and not run.stopped
    local = run_job(MatchJob(spec, spec), seeds, LocalBackend(1), progress=False)
    assert _games([run.results[i] for i in range(len(seeds))]) == _games([local.results[i] for i in range(len(seeds))])

