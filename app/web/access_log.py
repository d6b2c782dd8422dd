r"""The access log, with game ids, race tokens and watch tokens cut to a short prefix (a
game's URL is its key, a race's or a watch link's token lets anyone in); and the
``Server-Timing: app;dur=…`` header, the server's own time per request (the benchmarks
read it).

Uvicorn's own access log prints whole paths, so the site runs with it off and logs here.

>>> redact("/games/mzSoW-_QGh5Ky3uzNr00dr-3/actions")
'/games/mzSo…/actions'
>>> redact("/races/Qx7bW0e_4rT2pLm9sKd1Vz3a/events")
'/races/Qx7b…/events'
>>> redact("/watch/vN2s-8yHqA0cJf5kRt1XwE6u")
'/watch/vN2s…'
>>> redact("/players/join/eyJhbGciOi.abc")
'/players/join/…'

Control characters are escaped, so no path can start a line of its own in the log:

>>> redact("/x\r\n127.0.0.1 \"GET /admin\" 200\x00")
'/x\\r\\n127.0.0.1 \\"GET /admin\\" 200\\x00'
"""

from __future__ import annotations

import logging
import re
import time
from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.store.ids import ID_CHARACTER

logger = logging.getLogger("solitaire.access")

GAME_ID: Final = re.compile(f"(/(?:games|races|watch)/{ID_CHARACTER}{{4}}){ID_CHARACTER}+")
"""A game's id, a race's token or a watch link's token: the first four characters kept."""
TOKEN: Final = re.compile(r"(/players/join/)[^/?]+")


UNSAFE: Final = re.compile(r'[\x00-\x1f\x7f"\\]')


def redact(path: str) -> str:
    return UNSAFE.sub(_escape, TOKEN.sub(r"\1…", GAME_ID.sub(r"\1…", path)))


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    return {"\r": "\\r", "\n": "\\n", "\t": "\\t", '"': '\\"', "\\": "\\\\"}.get(
        char, f"\\x{ord(char):02x}"
    )


class AccessLog:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_and_note(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                millis = (time.perf_counter() - started) * 1000
                timing = (b"server-timing", f"app;dur={millis:.3f}".encode())
                message["headers"] = [*message.get("headers", []), timing]
            await send(message)

        try:
            await self.app(scope, receive, send_and_note)
        finally:
            client = scope.get("client")
            logger.info(
                '%s "%s %s" %d %.1fms',
                UNSAFE.sub(_escape, client[0]) if client else "-",
                scope["method"],
                redact(scope["path"]),
                status,
                (time.perf_counter() - started) * 1000,
            )
