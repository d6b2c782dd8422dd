"""The language of each answer: chosen by the player, else negotiated from the browser.

A pure ASGI middleware sets the request's locale (:mod:`app.i18n`) from the ``lang``
cookie the language switch sets, else from ``Accept-Language``, and marks every answer
with ``Content-Language`` and ``Vary: Accept-Language, Cookie``. URLs never carry the
language: a shared game link opens in the reader's own language.
"""

from __future__ import annotations

import re
from typing import Annotated, Final

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import i18n

COOKIE: Final = "lang"
COOKIE_MAX_AGE: Final = 10 * 365 * 24 * 3600


ACCEPT_KEPT: Final = 256
"""Of ``Accept-Language``, the characters that choose (a browser sends a few dozen): the
language negotiated from them is kept, for at most 512 headers of that size."""

_LANG = re.compile(r"(?:^|;)\s*lang=\"?([A-Za-z-]{1,16})")


def choose(headers: Headers, *, pseudo: bool = False) -> i18n.LocaleCode:
    """The ``lang`` cookie's language if it names one, else ``Accept-Language``'s best."""
    raw = headers.get("cookie")
    if raw and "lang=" in raw:
        found = _LANG.search(raw)
        code = i18n.language_of(found.group(1)) if found else None
        if code is not None and (code != i18n.PSEUDO or pseudo):
            return code
    accept = headers.get("accept-language")
    # Read each time (4 µs): nothing is kept by what a client sends.
    return i18n.negotiate(accept[:ACCEPT_KEPT] if accept else None)


class Language:
    def __init__(self, app: ASGIApp, *, pseudo: bool = False) -> None:
        self.app = app
        self.pseudo = pseudo

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        code = choose(Headers(scope=scope), pseudo=self.pseudo)
        tag = code.encode()

        async def send_with_language(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((b"content-language", tag))
                headers.append((b"vary", b"Accept-Language, Cookie"))
                message["headers"] = headers
            await send(message)

        with i18n.use_locale(code):
            await self.app(scope, receive, send_with_language)


router = APIRouter()


@router.post("/language", name="set_language")
def set_language(
    request: Request,
    lang: Annotated[str, Form(max_length=8)],
    next: Annotated[str, Form(max_length=512)] = "/",
) -> Response:
    """Remember the chosen language and go back where the player was (a same-site path)."""
    code = i18n.language_of(lang)
    if code is None or (code == i18n.PSEUDO and not request.app.state.settings.pseudo_locale):
        code = i18n.negotiate(request.headers.get("accept-language"))
    safe = next.startswith("/") and not next.startswith("//") and "\\" not in next
    target = next if safe else "/"
    response = RedirectResponse(target, status_code=303)
    response.set_cookie(
        COOKIE,
        code,
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=request.app.state.settings.secure_cookies,
    )
    return response
