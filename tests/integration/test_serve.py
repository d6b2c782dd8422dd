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


def test_a_slow_request_is_cut_off_and_others_are_served(serve: Callable[..., str]) -> None:
    url = serve(REQUEST_READ_SECONDS="1")
    port = int(url.rsplit(":", 1)[1])
    slow = []
    for _ in range(50):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # never finished
        slow.append(sock)
    assert httpx.get(url + "/", timeout=5).status_code == 200
    time.sleep(2)
    for sock in slow:
        sock.settimeout(30)  # a bound for liveness: the close comes after REQUEST_READ_SECONDS
        assert sock.recv(1024) == b""  # the server closed it
        sock.close()
    assert httpx.get(url + "/", timeout=5).status_code == 200
