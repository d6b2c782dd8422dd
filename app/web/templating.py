"""The Jinja2 environment: autoescaping, gettext (English for now) and display filters."""

from __future__ import annotations

from typing import Final

from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, select_autoescape

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
    )
    # English only for now: gettext passes messages through; Babel extracts them
    # (`make messages`) for the translations to come.
    env.install_null_translations(newstyle=True)  # type: ignore[attr-defined]
    env.filters["clock"] = clock
    env.globals["htmx_version"] = HTMX_VERSION
    return Jinja2Templates(env=env)
