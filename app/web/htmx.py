"""Everything the site knows about htmx's request headers, in one place."""

from __future__ import annotations

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send


def is_htmx(request: Request) -> bool:
    """An htmx request that wants a fragment (a history restore wants the whole page)."""
    return request.headers.get("HX-Request") == "true" and not is_history_restore(request)


def is_history_restore(request: Request) -> bool:
    return request.headers.get("HX-History-Restore-Request") == "true"


class VaryOnHtmx:
    """Add ``Vary: HX-Request`` to every response: one URL answers a page or a fragment."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_vary(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((b"vary", b"HX-Request"))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_vary)
