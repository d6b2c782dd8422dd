"""Display names: what the records show instead of "anonymous", if a player wants one.

A name is 1 to 24 characters once trimmed (runs of spaces count as one), written in
letters (of any script, with their marks), digits, spaces and ``-_.'``, with at least one
letter or digit; so no control, format or bidi-override character can be in one, nor an
invisible one (Unicode's default-ignorable code points, such as the Hangul fillers that
are letters by category). Two players cannot have names that differ only in case (a
unique index on the case-folded name holds it in the database).
"""

from __future__ import annotations

import unicodedata
from typing import Final, Literal

from app.service.model import utcnow
from app.store import Conflict, Database, queries, records
from app.store.ids import new_player_id
from app.store.models import PlayerRecord

MAX_LENGTH: Final = 24
PUNCTUATION: Final = frozenset(" -_.'")
INVISIBLE: Final = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)  # fmt: skip
"""Unicode's default-ignorable code points (DerivedCoreProperties.txt, Unicode 15):
drawn as nothing. Some are letters or marks by category (the Hangul fillers U+115F,
U+1160, U+3164, U+FFA0; the variation selectors), so the categories alone let them in."""

Problem = Literal["blank", "empty", "long", "characters", "taken"]
"""``blank``: nothing typed (or only spaces); ``empty``: no letter or digit."""


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
    >>> normal("...")
    Traceback (most recent call last):
    ...
    app.service.names.NameRefused: display name refused: empty
    """
    if blank(text):
        raise NameRefused("blank")
    name = " ".join(part for part in unicodedata.normalize("NFC", text).split(" ") if part)
    if len(name) > MAX_LENGTH:
        raise NameRefused("long")
    if not all(_allowed(character) for character in name):
        raise NameRefused("characters")
    if unicodedata.category(name[0]).startswith("M"):
        raise NameRefused("characters")  # a mark must follow a letter
    if not any(_letter_or_digit(character) for character in name):
        raise NameRefused("empty")
    return name


def blank(text: str) -> bool:
    """Nothing typed, or only spaces (of any kind)."""
    return not text.strip()


def _allowed(character: str) -> bool:
    category = unicodedata.category(character)
    if _invisible(character):
        return False
    return category[0] in "LM" or category == "Nd" or character in PUNCTUATION


def _letter_or_digit(character: str) -> bool:
    category = unicodedata.category(character)
    return category[0] == "L" or category == "Nd"


def _invisible(character: str) -> bool:
    point = ord(character)
    return any(low <= point <= high for low, high in INVISIBLE)


def key(name: str) -> str:
    """What two names must not share: the name case-folded."""
    return unicodedata.normalize("NFC", name.casefold())


def name(*, db: Database, player_id: str | None) -> str | None:
    if not player_id:
        return None
    with db.read() as session:
        return records.player_name(session, player_id)


def set_name(*, db: Database, player_id: str | None, text: str) -> tuple[str | None, str]:
    """Set the player's name (an empty ``text`` clears it): the name as kept, and the
    player's id. Without a player (``player_id`` None, or not one the database knows) one
    is made, in the same transaction as the name: a name refused makes no player."""
    chosen = None if blank(text) else normal(text)
    folded = key(chosen) if chosen else None
    try:
        with db.write() as session:
            known = bool(player_id) and queries.player(session, player_id or "") is not None
            owner = player_id if known and player_id else new_player_id()
            if folded and records.name_taken(session, folded, owner):
                raise NameRefused("taken")
            if not known:
                session.add(PlayerRecord(id=owner, created_at=utcnow()))
                session.flush()
            records.set_name(session, owner, chosen, folded)
    except Conflict:  # taken by another player in the meantime
        raise NameRefused("taken") from None
    return chosen, owner
