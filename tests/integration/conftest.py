"""A real uvicorn server in its own process(es) on a loopback port, for load and crash tests."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    url: str
    database_url: str
    process: subprocess.Popen[bytes]

    def kill(self) -> None:
        """SIGKILL the whole process group: no shutdown, no flush, like a crash."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def start_server(migrated_file: Path, tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Start ``uvicorn app.main:app`` with W workers on a copy of the migrated database."""
    path = tmp_path / "server.db"
    shutil.copy(migrated_file, path)
    servers: list[Server] = []

    def start(workers: int = 1, **settings: str) -> Server:
        """``settings``: environment variables for the server (they win over the defaults)."""
        port = free_port()
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{path}",
            "SECRET_KEY": "integration-test",
            **{
                f"RATE_LIMIT_{cost}{who}": "100000/second"
                for cost in ("", "SEARCH_", "NEW_GAME_", "REPLAY_", "NEW_PLAYER_")
                for who in ("PLAYER", "ADDRESS")
            },
            "RATE_LIMIT_REFUSAL_DELAY": "0",  # a refusal's wait has a test of its own
            **settings,
        }
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1",
             "--port", str(port), "--workers", str(workers), "--log-level", "warning"],
            env=env,
            start_new_session=True,
        )  # fmt: skip
        server = Server(f"http://127.0.0.1:{port}", f"sqlite:///{path}", process)
        servers.append(server)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(server.url + "/", timeout=1).status_code == 200:
                    return server
            except httpx.HTTPError:
                time.sleep(0.1)
        server.stop()
        pytest.fail("the server did not start")

    yield start
    for server in servers:
        server.stop()
