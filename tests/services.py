"""Real PostgreSQL and Redis servers for the tests that are about them: each
started from Debian's packages on a free loopback port in a temporary
folder, and stopped afterwards. Where the programs are not installed (a
machine that is not CI's), the tests that need them skip and say why."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _program(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


@contextmanager
def postgresql() -> Iterator[str]:
    """A PostgreSQL server with an empty database; its URL."""
    initdb, postgres = _program("initdb"), _program("postgres")
    if initdb is None or postgres is None:
        pytest.skip("PostgreSQL is not installed (Debian's postgresql package; .ci/run installs it as root)")
    psycopg = pytest.importorskip("psycopg", reason="the server extra's psycopg is not installed")
    folder = tempfile.mkdtemp(prefix="tilebag-pg-")
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL will not run as root: as its own user
        shutil.chown(folder, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data = os.path.join(folder, "data")
    port = free_port()
    try:
        subprocess.run(
            [*as_user, initdb, "-D", data, "-A", "trust", "-U", "postgres", "--no-sync"],
            check=True,
            capture_output=True,
        )
        server = subprocess.Popen(
            [*as_user, postgres, "-D", data, "-p", str(port), "-k", folder, "-c", "listen_addresses=127.0.0.1",
             "-c", "fsync=off"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except (OSError, subprocess.CalledProcessError) as err:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip(f"PostgreSQL could not be started here: {err}")
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with psycopg.connect(f"postgresql://postgres@127.0.0.1:{port}/postgres", autocommit=True) as conn:
                    conn.execute("CREATE DATABASE tilebag")
                break
            except psycopg.OperationalError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.2)
        yield f"postgresql://postgres@127.0.0.1:{port}/tilebag"
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(folder, ignore_errors=True)


class RedisProcess:
    """A Redis server on a fixed loopback port that a test may stop and start again."""

    def __init__(self, program: str, folder: str, port: int) -> None:
        self.program, self.folder, self.port = program, folder, port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        redis = pytest.importorskip("redis", reason="the server extra's redis client is not installed")
        self.process = subprocess.Popen(
            [self.program, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", self.folder],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port)
        deadline = time.monotonic() + 20
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise
                time.sleep(0.1)
        client.close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.process = None


@contextmanager
def redis_process() -> Iterator[RedisProcess]:
    """A Redis server, running; the test may stop and start it again."""
    program = shutil.which("redis-server")
    if program is None:
        pytest.skip("Redis is not installed (Debian's redis-server package; .ci/run installs it as root)")
    pytest.importorskip("redis", reason="the server extra's redis client is not installed")
    folder = tempfile.mkdtemp(prefix="tilebag-redis-")
    server = RedisProcess(program, folder, free_port())
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def redis_server() -> Iterator[str]:
    """A Redis server; its URL."""
    with redis_process() as server:
        yield server.url
