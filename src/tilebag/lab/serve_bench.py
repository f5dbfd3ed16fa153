"""``tilebag bench serve``: many games at once against a real server.

A server process is started on a free loopback port with a fresh SQLite
database. Each game is a scripted client against the static bot: the client
starts its game (a hundred games start each second until all have), follows
it over a WebSocket and, on each of its turns, sends the play
the static bot would make (worked out in a process of the clients' own,
outside the time measured), at once or after a thinking time. The latency
of an action is the time from sending it to its answer; the bots move after
the answer, so their thinking is not in it. The server's memory is read
from its process as the games end. With ``url`` the clients play a server
already running (on another machine, say) and its memory is not read.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tilebag.engine import Engine


RAMP_GAMES_PER_SECOND = 100
"""How fast the games start: people arrive over the first seconds, not in one instant."""

STALLED_SECONDS = 120
"""How long a client waits for news of its game before it gives up."""


@dataclass
class ServeResult:
    """One run of ``games`` concurrent games."""

    games: int
    think: float
    """Seconds each client waited before each of its actions, on average (each wait is
    drawn between half and one and a half times this)."""
    actions: int
    seconds: float
    actions_per_second: float
    p50_ms: float
    p99_ms: float
    """Action latency as the clients saw it: from sending an action to reading its answer."""
    server_p99_ms: float
    """The 99th percentile of the time the server spent on an action (its ``Server-Timing``)."""
    client_lag_p99_ms: float
    """The 99th percentile of how late the clients' own event loop woke (their share of the latency)."""
    server_rss_mb: float

    def as_dict(self) -> dict[str, float | int]:
        return asdict(self)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def start_server(folder: str) -> tuple[subprocess.Popen[bytes], str]:
    """A server on a free port with a database in ``folder``; its process and URL."""
    import httpx

    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "tilebag", "serve", "--port", str(port), "--db", f"sqlite:///{folder}/bench.db", "--allow-seeds"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(f"{url}/api/games", timeout=1)
            return process, url
        except httpx.HTTPError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise RuntimeError("the server did not start") from None
            time.sleep(0.1)


async def _play(
    url: str, seed: int | None, latencies: list[float], handled: list[float], choose: Callable[[dict[str, object]], Awaitable[str]], think: float
) -> int:
    """One game to its end; how many actions the client sent."""
    import httpx
    import websockets

    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        made = (await client.post("/api/games", json={"seats": [{"name": "client"}, {"bot": "static"}], "seed": seed})).json()
        game, token = made["id"], made["seats"][0]["token"]
        headers = {"Authorization": f"Bearer {token}"}
        sent = 0
        pace = random.Random(seed)
        ws_url = url.replace("http://", "ws://") + f"/api/games/{game}/ws?token={token}"
        async with websockets.connect(ws_url, max_size=None) as ws:
            view: dict[str, object] | None = None
            acted = -1
            while True:
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), timeout=STALLED_SECONDS))
                except TimeoutError:
                    raise RuntimeError(f"game {game}: the server said nothing for {STALLED_SECONDS} s") from None
                if message["type"] in ("hello", "view") and int(message["view"]["seq"]) > acted:
                    view = message["view"]
                if view is None:
                    continue
                if view["status"] == "over":
                    return sent
                if view["turn"] != 0:
                    continue
                action = "accept" if view["status"] == "final-challenge" else await choose(view)
                if think:  # people do not all answer at the same instant: between half and one and a half times
                    await asyncio.sleep(think * pace.uniform(0.5, 1.5))
                started = time.perf_counter()
                response = await client.post(f"/api/games/{game}/actions", json={"action": action}, headers=headers)
                latencies.append(time.perf_counter() - started)
                timing = response.headers.get("server-timing", "")
                if "dur=" in timing:
                    handled.append(float(timing.partition("dur=")[2]) / 1000)
                sent += 1
                if response.status_code != 200:
                    raise RuntimeError(f"the server refused {action!r}: {response.text}")
                view = response.json()
                acted = int(str(view["seq"]))


_engine: Engine | None = None


def _best_play(board: str, rack: str, bag: int) -> str:
    """The static bot's play on a board (CGP field) with a rack, in GCG notation.

    >>> _best_play("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15", "QI", 86)
    '8G QI'
    """
    from tilebag.engine import Engine
    from tilebag.formats import cgp
    from tilebag.lexicon import default_lexicon

    global _engine
    if _engine is None:
        _engine = Engine.for_lexicon(default_lexicon())
    position = cgp.parse(f"{board} {rack}/ 0/0 0")
    best = _engine.best(position.board, position.rack, bag_count=bag)
    if best is None or best.move.kind.value == "pass":
        return "-"
    if best.move.kind.value == "exchange":
        return best.move.gcg(position.board.alphabet)
    return position.board.notation(best.move)


def _percentile(ordered: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of the sorted values lie (0 for none).

    >>> _percentile([float(n) for n in range(1, 101)], 0.99)
    100.0
    """
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] if ordered else 0.0


def run(games: int, *, seed: int = 1, think: float = 0.0, url: str | None = None) -> ServeResult:
    """Play ``games`` games at once against a fresh server (or the one at
    ``url``), a client's play ``think`` seconds after its turn comes, and measure.

    The clients' plays are worked out in a process of their own, so that the
    clients' event loop is free to read each answer as it comes.
    """
    with tempfile.TemporaryDirectory(prefix="tilebag-bench-serve-") as folder, ProcessPoolExecutor(
        max_workers=1, mp_context=multiprocessing.get_context("spawn")
    ) as thinker:
        thinker.submit(_best_play, "15/" * 14 + "15", "QI", 86).result()  # the lexicon loaded before the clock starts
        process, server = (None, url) if url else start_server(folder)
        try:
            latencies: list[float] = []
            handled: list[float] = []

            async def choose(view: dict[str, object]) -> str:
                loop = asyncio.get_running_loop()
                return await loop.run_in_executor(
                    thinker, _best_play, str(view["board"]), str(view["rack"]), int(str(view["bag"]))
                )

            lags: list[float] = []

            async def watch_loop() -> None:
                # how late the clients' own event loop wakes: latency that is the clients', not the server's
                while True:
                    asked = time.perf_counter()
                    await asyncio.sleep(0.01)
                    lags.append(time.perf_counter() - asked - 0.01)

            async def joining(index: int) -> int:
                # the games start over the first seconds, RAMP_GAMES_PER_SECOND at a time, as people arrive
                await asyncio.sleep(index / RAMP_GAMES_PER_SECOND)
                return await _play(server, seed + index if url is None else None, latencies, handled, choose, think)

            async def everything() -> int:
                watcher = asyncio.create_task(watch_loop())
                counts = await asyncio.gather(*(joining(i) for i in range(games)))
                watcher.cancel()
                return sum(counts)

            started = time.perf_counter()
            actions = asyncio.run(everything())
            seconds = time.perf_counter() - started
            rss = _rss_mb(process.pid) if process is not None else 0.0
        finally:
            if process is not None:
                process.terminate()
                process.wait(timeout=20)
    ordered = sorted(latencies)
    return ServeResult(
        games=games,
        think=think,
        actions=actions,
        seconds=round(seconds, 2),
        actions_per_second=round(actions / seconds, 1) if seconds else 0.0,
        p50_ms=round(statistics.median(ordered) * 1000, 1) if ordered else 0.0,
        p99_ms=round(_percentile(ordered, 0.99) * 1000, 1),
        server_p99_ms=round(_percentile(sorted(handled), 0.99) * 1000, 1),
        client_lag_p99_ms=round(_percentile(sorted(lags), 0.99) * 1000, 1),
        server_rss_mb=round(rss, 1),
    )


def main(sizes: list[int], *, as_json: bool, think: float = 0.0, url: str | None = None) -> int:
    """Run each size in turn and print what was measured (what was done so far, on Ctrl+C)."""
    results = []
    for games in sizes:
        result = run(games, think=think, url=url)
        results.append(result)
        if not as_json:
            print(
                f"{result.games:>4} games: {result.actions} actions in {result.seconds:.1f} s, "
                f"{result.actions_per_second:.0f} actions/s, latency p50 {result.p50_ms:.1f} ms, "
                f"p99 {result.p99_ms:.1f} ms (in the server {result.server_p99_ms:.1f} ms, "
                f"clients' loop lag p99 {result.client_lag_p99_ms:.1f} ms)"
                + (f", server memory {result.server_rss_mb:.0f} MB" if url is None else ""),
                flush=True,
            )
    if as_json:
        print(json.dumps([r.as_dict() for r in results]))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main([int(a) for a in sys.argv[1:]] or [10], as_json=bool(os.environ.get("JSON"))))
