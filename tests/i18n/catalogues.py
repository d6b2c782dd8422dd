"""What the catalogue tests share: the languages, their catalogues, the code's messages."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Final

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from app.config import ROOT

LOCALES_DIR: Final = ROOT / "locales"
TRANSLATED: Final = ("hi", "ar")
"""The languages with a catalogue (English is the source language)."""
KEYWORDS: Final = {**DEFAULT_KEYWORDS, "lazy_gettext": None}
"""The gettext functions ``make messages`` extracts (as its ``-k`` options say)."""

MessageId = str | tuple[str, ...]


def key(message_id: str | Iterable[str], context: str | None = None) -> MessageId:
    """A message's identity: its id (and plural id), after its context if it has one."""
    ids = (message_id,) if isinstance(message_id, str) else tuple(message_id)
    if context:
        return (f"{context}\x04", *ids)
    return ids[0] if len(ids) == 1 else ids


def template() -> Catalog:
    with (LOCALES_DIR / "messages.pot").open("rb") as pot:
        return read_po(pot)


@cache
def catalogue(code: str) -> Catalog:
    with (LOCALES_DIR / code / "LC_MESSAGES" / "messages.po").open("rb") as po:
        return read_po(po, locale=code)


def extracted() -> dict[MessageId, list[str]]:
    """Every message in the code now, as ``make messages`` would extract it, with the
    files it comes from. A message used both alone and with a plural is one entry, as
    Babel makes it (the plural one; ``gettext`` finds its singular form)."""
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg, str(ROOT / "babel.cfg"))
    found: dict[MessageId, list[str]] = {}
    for filename, _line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS
    ):
        found.setdefault(key(message, context), []).append(filename)
    for plural in [ids for ids in found if isinstance(ids, tuple)]:
        context = plural[0] if plural[0].endswith("\x04") else None
        singular = key(plural[1] if context else plural[0], context and context[:-1])
        if singular != plural and singular in found:
            found[plural] += found.pop(singular)
    return found
