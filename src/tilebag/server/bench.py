"""``tilebag bench serve``: many games at once against a real server.

A server process is started on a free loopback port with a fresh SQLite
database. Each game is a scripted client against the static bot: the client
follows its game over a WebSocket and, on each of its turns, sends the play
the static bot would make (worked out in the client, outside the time
measured). The latency of an action is the time from sending it to its
answer; the bots move after the answer, so their thinking is not in it.
The server's memory is read from its process as the games end.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path


@dataclass
class ServeResult:
    """One run of ``games`` concurrent games."""

    games: int
    actions: int
    seconds: float
    actions_per_second: float
    p50_ms: float
    p99_ms: float
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


async def _play(url: str, seed: int, latencies: list[float], choose: Callable[[dict[str, object]], str]) -> int:
    """One game to its end; how many actions the client sent."""
    import httpx
    import websockets

    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        made = (await client.post("/api/games", json={"seats": [{"name": "client"}, {"bot": "static"}], "seed": seed})).json()
        game, token = made["id"], made["seats"][0]["token"]
        headers = {"Authorization": f"Bearer {token}"}
        sent = 0
        ws_url = url.replace("http://", "ws://") + f"/api/games/{game}/ws?token={token}"
        async with websockets.connect(ws_url, max_size=None) as ws:
            view: dict[str, object] | None = None
            acted = -1
            while True:
                message = json.loads(await ws.recv())
                if message["type"] in ("hello", "view") and int(message["view"]["seq"]) > acted:
                    view = message["view"]
                if view is None:
                    continue
                if view["status"] == "over":
                    return sent
                if view["turn"] != 0:
                    continue
                action = "accept" if view["status"] == "final-challenge" else choose(view)
                started = time.perf_counter()
                response = await client.post(f"/api/games/{game}/actions", json={"action": action}, headers=headers)
                latencies.append(time.perf_counter() - started)
                sent += 1
                if response.status_code != 200:
                    raise RuntimeError(f"the server refused {action!r}: {response.text}")
                view = response.json()
                acted = int(str(view["seq"]))


def _chooser() -> Callable[[dict[str, object]], str]:
    from tilebag.engine import Engine
    from tilebag.formats import cgp
    from tilebag.lexicon import default_lexicon

    engine = Engine.for_lexicon(default_lexicon())

    def choose(view: dict[str, object]) -> str:
        position = cgp.parse(f"{view['board']} {view['rack']}/ 0/0 0")
        best = engine.best(position.board, position.rack, bag_count=int(str(view["bag"])))
        if best is None or best.move.kind.value == "pass":
            return "-"
        if best.move.kind.value == "exchange":
            return best.move.gcg(position.board.alphabet)
        return position.board.notation(best.move)

    return choose


def run(games: int, *, seed: int = 1) -> ServeResult:
    """Play ``games`` games at once against a fresh server, and measure."""
    choose = _chooser()
    with tempfile.TemporaryDirectory(prefix="tilebag-bench-serve-") as folder:
        process, url = start_server(folder)
        try:
            latencies: list[float] = []

            async def everything() -> int:
                counts = await asyncio.gather(*(_play(url, seed + i, latencies, choose) for i in range(games)))
                return sum(counts)

            started = time.perf_counter()
            actions = asyncio.run(everything())
            seconds = time.perf_counter() - started
            rss = _rss_mb(process.pid)
        finally:
            process.terminate()
            process.wait(timeout=20)
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else 0.0
    return ServeResult(
        games=games,
        actions=actions,
        seconds=round(seconds, 2),
        actions_per_second=round(actions / seconds, 1) if seconds else 0.0,
        p50_ms=round(statistics.median(ordered) * 1000, 1) if ordered else 0.0,
        p99_ms=round(p99 * 1000, 1),
        server_rss_mb=round(rss, 1),
    )


def main(sizes: list[int], *, as_json: bool) -> int:
    """Run each size in turn and print what was measured."""
    results = []
    for games in sizes:
        result = run(games)
        results.append(result)
        if not as_json:
            print(
                f"{result.games:>4} games: {result.actions} actions in {result.seconds:.1f} s, "
                f"{result.actions_per_second:.0f} actions/s, latency p50 {result.p50_ms:.1f} ms, "
                f"p99 {result.p99_ms:.1f} ms, server memory {result.server_rss_mb:.0f} MB",
                flush=True,
            )
    if as_json:
        print(json.dumps([r.as_dict() for r in results]))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main([int(a) for a in sys.argv[1:]] or [10], as_json=bool(os.environ.get("JSON"))))
