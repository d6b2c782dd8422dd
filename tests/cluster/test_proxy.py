"""What the proxy does for the app servers: the client's address as the proxy saw it (never
one a client wrote in a header), and a cap on one address's connections."""

from __future__ import annotations

import socket
import time
import uuid

import httpx
import pytest

from app.cluster import Cluster

pytestmark = pytest.mark.heavy


def test_a_forged_forwarded_for_is_dropped_by_the_proxy(cluster: Cluster) -> None:
    probe = f"/rules?{uuid.uuid4().hex}"
    answer = httpx.get(cluster.url + probe, headers={"X-Forwarded-For": "203.0.113.7"})
    assert answer.status_code == 200
    time.sleep(0.2)  # the access log's line written
    logs = "".join(cluster.log_file(name).read_text() for name in cluster.app_names)
    assert "203.0.113.7" not in logs
    assert '127.0.0.1 "GET /rules' in logs


def test_one_address_holds_at_most_its_share_of_connections(cluster: Cluster) -> None:
    held = []
    try:
        for _ in range(cluster.per_address):
            held.append(socket.create_connection(("127.0.0.1", cluster.proxy_port), timeout=5))
        # Each one counted at the proxy (its accept may come after the kernel's).
        deadline = time.monotonic() + 10
        while f"conn_cur={cluster.per_address}" not in cluster.proxy("show table site"):
            assert time.monotonic() < deadline, cluster.proxy("show table site")
            time.sleep(0.05)
        try:  # refused: closed at once (a reset may even come before the connect returns)
            with socket.create_connection(("127.0.0.1", cluster.proxy_port), timeout=5) as one:
                one.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                answer = one.recv(100)
        except (ConnectionResetError, BrokenPipeError):
            answer = b""
        assert answer == b"", "the proxy took one connection more than the cap"
    finally:
        for sock in held:
            sock.close()
    deadline = time.monotonic() + 10
    while httpx.get(cluster.url + "/health").status_code != 200:  # the count falls back
        assert time.monotonic() < deadline
        time.sleep(0.1)
