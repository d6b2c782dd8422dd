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
- Bodies larger than :data:`MAX_BODY_BYTES` are refused with 413, also when they come in
  chunks without a ``Content-Length``.
- ``HEAD`` is answered as ``GET`` without the body.
- Redirects are relative (``Location: /games/…``): the ``Host`` header a client sent is
  never reflected into them. With a configured base URL, a request for any other host is
  refused with 400, so absolute links (the transfer link) name only the site's own host.
"""

from __future__ import annotations

from typing import Final
from urllib.parse import urlsplit

from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.i18n import gettext as _
from app.i18n import number

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
PRIVATE_HEADERS: Final = (*HEADERS, (b"x-robots-tag", b"noindex, nofollow"))
NO_STORE: Final = ((b"cache-control", b"no-store"),)
READ: Final = frozenset({b"host", b"sec-fetch-site", b"origin", b"content-length"})
"""The request's headers read here, found in one pass over its raw headers."""
PRIVATE_PREFIXES: Final = ("/games/", "/players/")


class BodyTooLarge(Exception):
    pass


class Security:
    def __init__(self, app: ASGIApp, base_url: str = "") -> None:
        self.app = app
        base = urlsplit(base_url)
        self.host = base.netloc.lower()
        self.scheme = base.scheme

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = _read(scope)
        private = scope["path"].startswith(PRIVATE_PREFIXES) or scope["path"] == "/games"
        head = scope["method"] == "HEAD"
        if head:
            scope = {**scope, "method": "GET"}
        if self.scheme:
            scope = {**scope, "scheme": self.scheme}
        extra = PRIVATE_HEADERS if private else HEADERS

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                answer = message.get("headers", [])
                names = {name.lower() for name, _value in answer}
                if b"location" in names:
                    answer = [_relative(name, value) for name, value in answer]
                # A game's pages and exports, My games and the transfer pages hold what
                # only the URL's holder may see: no shared or back/forward cache keeps them.
                store = NO_STORE if private and b"cache-control" not in names else ()
                message["headers"] = [*answer, *extra, *store]
            elif head and message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        if self.host and headers.get("host", "").lower() != self.host:
            response = PlainTextResponse(_("Refused: this site is not served here."), 400)
            await response(scope, receive, send_with_headers)
            return

        if scope["method"] not in SAFE_METHODS and _cross_site(scope, headers):
            response = PlainTextResponse(
                _("Refused: this form was sent from another site. Nothing was changed."),
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
        if length is None and scope["method"] not in SAFE_METHODS:
            # A body without a length (chunked): read it here, so one too large is a 413.
            body, more = b"", True
            while more:
                message = await receive()
                if message["type"] != "http.request":
                    break
                body += message.get("body", b"")
                more = message.get("more_body", False)
                if len(body) > MAX_BODY_BYTES:
                    await _too_large(scope, receive, send_with_headers)
                    return
            receive = _replay(body, receive)
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


def _read(scope: Scope) -> dict[str, str]:
    """The request's headers of :data:`READ` (the first of each), by name."""
    found: dict[str, str] = {}
    for name, value in scope["headers"]:
        if name in READ:
            found.setdefault(name.decode("latin-1"), value.decode("latin-1"))
    return found


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replayed


def _relative(name: bytes, value: bytes) -> tuple[bytes, bytes]:
    """A redirect's ``Location`` without scheme and host: never what the client sent."""
    if name.lower() != b"location":
        return name, value
    parts = urlsplit(value.decode("latin-1"))
    if not parts.netloc:
        return name, value
    path = parts.path or "/"
    return name, (path + (f"?{parts.query}" if parts.query else "")).encode("latin-1")


def _cross_site(scope: Scope, headers: dict[str, str]) -> bool:
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
        _("Refused: a request body may hold at most %(size)s KiB.")
        % {"size": number(MAX_BODY_BYTES // 1024)},
        status_code=413,
    )
    await response(scope, receive, send)
