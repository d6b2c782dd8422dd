"""While the shared rate-limit store does not answer, the limits count in the process's
memory (as on one server): play goes on, and the limits still hold."""

from __future__ import annotations

import socket

import pytest
from starlette.requests import Request

from app.config import Settings
from app.web.throttle import Throttle, TooManyRequests


def request_from(address: str) -> Request:
    return Request({"type": "http", "method": "POST", "path": "/", "headers": [],
                    "client": (address, 1234), "query_string": b""})  # fmt: skip


def nobody_listening() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"redis://127.0.0.1:{sock.getsockname()[1]}/0"


def test_limits_count_in_memory_while_the_store_is_away() -> None:
    settings = Settings(
        rate_limit_storage=nobody_listening(), rate_limit_new_game_address="3/minute"
    )
    throttle = Throttle(settings)
    request = request_from("203.0.113.9")
    for _ in range(3):
        throttle.check(
            request, None, "new_game"
        )  # not refused: the store's failure is not the player's
    with pytest.raises(TooManyRequests):
        throttle.check(request, None, "new_game")
    throttle.check(request_from("203.0.113.10"), None, "new_game")  # another address: its own count
