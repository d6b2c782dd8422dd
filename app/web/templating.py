"""The Jinja2 environment: autoescaping, gettext in the request's language, display filters."""

from __future__ import annotations

from typing import Final

from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, select_autoescape

from app import i18n
from app.config import ROOT

HTMX_VERSION: Final = "2.0.11"


def clock(milliseconds: int) -> str:
    """``754000`` → ``'12:34'``; hours when needed (``'1:02:03'``)."""
    seconds = milliseconds // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


def make_templates() -> Jinja2Templates:
    env = Environment(
        loader=FileSystemLoader(ROOT / "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
        # Templates change with a deploy (a restart), never while serving: checking every
        # template file's mtime at each render cost 12 % of a move under load.
        auto_reload=False,
    )
    # The request's locale lives in a context variable (app.i18n), so one environment
    # serves every language.
    env.install_gettext_callables(  # type: ignore[attr-defined]
        i18n.gettext, i18n.ngettext, newstyle=True, pgettext=i18n.pgettext
    )
    env.globals["current_locale"] = i18n.current
    env.globals["text_direction"] = i18n.direction
    env.globals["languages"] = [i18n.LANGUAGES[code] for code in i18n.LOCALES]
    env.filters["number"] = i18n.number
    env.filters["percent"] = i18n.percent
    env.filters["day"] = i18n.day
    env.filters["clock"] = clock
    env.globals["htmx_version"] = HTMX_VERSION
    return Jinja2Templates(env=env)
