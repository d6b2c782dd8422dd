"""``solitaire serve`` as an operator runs it: forwarded addresses are believed only from
the proxies the operator names, and slow clients cannot hold connections for ever."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from tests.integration.conftest import free_port


@pytest.fixture
def serve(migrated_file: Path, tmp_path: Path) -> Iterator[Callable[..., str]]:
    """Start ``solitaire serve`` with these settings; its URL."""
    processes: list[subprocess.Popen[bytes]] = []

    def start(**settings: str) -> str:
        path = tmp_path / f"serve-{len(processes)}.db"
        shutil.copy(migrated_file, path)
        port = free_port()
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{path}", "SECRET_KEY": "serve-test"}
        env.pop("FORWARDED_ALLOW_IPS", None)
        env.update(settings)
        process = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--no-migrate", "--port", str(port)],
            env=env,
            start_new_session=True,
            stderr=subprocess.DEVNULL,
        )
        processes.append(process)
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(url + "/", timeout=1).status_code == 200:
                    return url
            except httpx.HTTPError:
                time.sleep(0.1)
        pytest.fail("solitaire serve did not start")

    yield start
    for process in processes:
        process.terminate()
        process.wait(10)


def new_games(url: str, forwarded: list[str]) -> list[int]:
    return [
        httpx.post(
            url + "/games", data={"kind": "montana"}, headers={"X-Forwarded-For": address}
        ).status_code
        for address in forwarded
    ]


def test_forged_forwarded_addresses_count_as_the_peer(serve: Callable[..., str]) -> None:
    url = serve(RATE_LIMIT_NEW_GAME_ADDRESS="3/minute")
    statuses = new_games(url, [f"10.0.0.{n}" for n in range(6)])
    assert statuses[:3] == [303, 303, 303]
    assert set(statuses[3:]) == {429}  # one address, however many it claims to be


def test_forwarded_addresses_are_believed_from_a_named_proxy(serve: Callable[..., str]) -> None:
    url = serve(RATE_LIMIT_NEW_GAME_ADDRESS="3/minute", FORWARDED_ALLOW_IPS="127.0.0.1")
    assert set(new_games(url, [f"10.0.0.{n}" for n in range(6)])) == {303}


def test_slow_requests_leave_room_for_others_within_the_cap(serve: Callable[..., str]) -> None:
    """50 half-sent requests hold 50 of ``MAX_CONNECTIONS``: others are served meanwhile.
    Their deadline is the proxy's (``timeout http-request``); idle connections after an
    answer are closed by uvicorn after 5 s (``timeout_keep_alive``)."""
    url = serve()
    port = int(url.rsplit(":", 1)[1])
    slow = []
    try:
        for _ in range(50):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # never finished
            slow.append(sock)
        assert httpx.get(url + "/", timeout=5).status_code == 200
    finally:
        for sock in slow:
            sock.close()
    with socket.create_connection(("127.0.0.1", port)) as idle:
        idle.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        idle.settimeout(30)  # a bound for liveness: the close comes 5 s after the answer
        received = b""
        while chunk := idle.recv(65536):
            received += chunk
        assert received.startswith(b"HTTP/1.1 200")
