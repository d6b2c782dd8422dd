"""Headers every response gets and checks every request gets, as one pure ASGI middleware.

- ``Vary: HX-Request``: one URL answers a page or an htmx fragment.
- Headers: a Content-Security-Policy allowing only the site's own scripts and styles (no
  inline script anywhere), ``nosniff``, ``Referrer-Policy: same-origin`` (a game's URL is
  its key and must not leak to other sites), no framing, and ``noindex`` on game pages.
- Cross-site requests: a state-changing request (anything but GET, HEAD, OPTIONS) is
  refused with 403 when ``Sec-Fetch-Site`` says it came from another site, or, for
  browsers that do not send it, when ``Origin`` names another origin. Clients that send
  neither (command-line tools) are let through: the SameSite=Lax cookie and the game id in
  the URL are their limits.
- Bodies larger than :data:`MAX_BODY_BYTES` are refused with 413 before they are read.
"""

from __future__ import annotations

from typing import Final
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES: Final = 16 * 1024
SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
CSP: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "object-src 'none'"
)
HEADERS: Final = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    # One URL answers a page or an htmx fragment: caches must keep them apart.
    (b"vary", b"HX-Request"),
)
PRIVATE_PREFIXES: Final = ("/games/", "/players/")


class BodyTooLarge(Exception):
    pass


class Security:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        private = scope["path"].startswith(PRIVATE_PREFIXES)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = list(HEADERS)
                if private:
                    extra.append((b"x-robots-tag", b"noindex, nofollow"))
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        if scope["method"] not in SAFE_METHODS and _cross_site(scope, headers):
            response = PlainTextResponse(
                "Refused: this form was sent from another site. Nothing was changed.",
                status_code=403,
            )
            await response(scope, receive, send_with_headers)
            return
        length = headers.get("content-length")
        if length is not None and (
            not (length.isascii() and length.isdigit()) or int(length) > MAX_BODY_BYTES
        ):
            await _too_large(scope, receive, send_with_headers)
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > MAX_BODY_BYTES:
                    raise BodyTooLarge
            return message

        try:
            await self.app(scope, limited_receive, send_with_headers)
        except BodyTooLarge:
            await _too_large(scope, receive, send_with_headers)


def _cross_site(scope: Scope, headers: Headers) -> bool:
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None:
        return fetch_site not in ("same-origin", "none")
    origin = headers.get("origin")
    if origin is None:
        return False
    host = headers.get("host", "")
    return origin == "null" or urlsplit(origin).netloc != host


async def _too_large(scope: Scope, receive: Receive, send: Send) -> None:
    response = PlainTextResponse(
        f"Refused: a request body may hold at most {MAX_BODY_BYTES // 1024} KiB.",
        status_code=413,
    )
    await response(scope, receive, send)
