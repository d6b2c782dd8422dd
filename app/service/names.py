"""Display names: what the records show instead of "anonymous", if a player wants one.

A name is 1 to 24 characters once trimmed (runs of spaces count as one), written in
letters (of any script, with their marks), digits, spaces and ``-_.'``; so no control,
format or bidi-override character can be in one. Two players cannot have names that
differ only in case (a unique index on the case-folded name holds it in the database).
"""

from __future__ import annotations

import unicodedata
from typing import Final, Literal

from app.store import Conflict, Database, records

MAX_LENGTH: Final = 24
PUNCTUATION: Final = frozenset(" -_.'")

Problem = Literal["empty", "long", "characters", "taken"]


class NameRefused(ValueError):
    """A name that breaks the rules: ``problem`` says which."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(f"display name refused: {problem}")
        self.problem = problem


def normal(text: str) -> str:
    """The name as kept: NFC, trimmed, inner runs of spaces as one; raise
    :class:`NameRefused` when it breaks a rule.

    >>> normal("  Ada   Lovelace ")
    'Ada Lovelace'
    >>> normal("अनु")
    'अनु'
    >>> normal("a\\u202eb")
    Traceback (most recent call last):
    ...
    app.service.names.NameRefused: display name refused: characters
    """
    name = " ".join(unicodedata.normalize("NFC", text).split(" "))
    name = " ".join(part for part in name.split(" ") if part)
    if not name:
        raise NameRefused("empty")
    if len(name) > MAX_LENGTH:
        raise NameRefused("long")
    if not all(_allowed(character) for character in name):
        raise NameRefused("characters")
    if unicodedata.category(name[0]).startswith("M"):
        raise NameRefused("characters")  # a mark must follow a letter
    return name


def _allowed(character: str) -> bool:
    category = unicodedata.category(character)
    return category[0] in "LM" or category == "Nd" or character in PUNCTUATION


def key(name: str) -> str:
    """What two names must not share: the name case-folded."""
    return unicodedata.normalize("NFC", name.casefold())


def name(*, db: Database, player_id: str | None) -> str | None:
    if not player_id:
        return None
    with db.read() as session:
        return records.player_name(session, player_id)


def set_name(*, db: Database, player_id: str, text: str) -> str | None:
    """Set the player's name (an empty field clears it); the name as kept."""
    chosen = normal(text) if text.strip() else None
    folded = key(chosen) if chosen else None
    try:
        with db.write() as session:
            if folded and records.name_taken(session, folded, player_id):
                raise NameRefused("taken")
            records.set_name(session, player_id, chosen, folded)
    except Conflict:  # taken by another player in the meantime
        raise NameRefused("taken") from None
    return chosen
