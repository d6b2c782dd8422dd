"""Display names: what the records show instead of "anonymous", if a player wants one.

A name is kept NFKC-normalised (``Ada`` typed in fullwidth letters, or with a
mathematical bold A, is ``Ada``), 1 to 24 characters once trimmed (runs of spaces count
as one), written in letters (of any script, with their marks), digits, spaces and
``-_.'``, with at least one letter or digit; so no control, format or bidi-override
character can be in one, nor an invisible one (Unicode's default-ignorable code points,
such as the Hangul fillers that are letters by category). A letter carries at most
:data:`MOST_MARKS` combining marks, never the same one twice in a row (no stacks of
accents drawn over the row above).

No name can pass for another: two names are the same name when their confusable
skeletons (Unicode TR39, computed by ICU's spoof checker) of the case-folded text are
equal, so ``Ada`` with Cyrillic As is ``Ada``, and ``ADA`` is too; a unique index on a
digest of the skeleton holds it in the database. Nor can a name pass for the site's own
words: the records' "anonymous" and "Player", and the labels the site gives unnamed players
("anonymous 1", "Player 7"), in every language the site speaks and with any number in any
script (``गुमनाम १``, Arabic's with Arabic-Indic digits, ``Player l``): see
:func:`site_like`.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import cache
from typing import Final, Literal

import icu

from app import i18n
from app.service.model import utcnow
from app.store import Conflict, Database, queries, records
from app.store.ids import new_player_id
from app.store.models import PlayerRecord

MAX_LENGTH: Final = 24
MOST_MARKS: Final = 3
"""Combining marks one letter may carry: a Hindi syllable takes two (हूँ), Arabic a
shadda and a vowel (مَّ); more is a stack drawn over the text around it."""
SITE_WORDS: Final = ("anonymous", "Player", "anonymous %(num)s")
"""Messages the records show beside or instead of names, and the label the site gives an
unnamed racer: no name may look like one of them in any of the site's languages, whatever
number it carries."""
ARTICLE: Final = "\u0627\u0644"
"""Arabic's definite article (al-), written joined to its word: «اللاعب» "the player" and
«لاعب» "player" are one site word."""
_SEPARATORS: Final = re.compile(r"[ \-_.']+")
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

Problem = Literal["blank", "empty", "long", "characters", "marks", "taken", "site"]
"""``blank``: nothing typed (or only spaces); ``empty``: no letter or digit; ``marks``:
too many combining marks on one letter; ``site``: looks like one of the site's words."""


class NameRefused(ValueError):
    """A name that breaks the rules: ``problem`` says which."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(f"display name refused: {problem}")
        self.problem = problem


def normal(text: str) -> str:
    """The name as kept: NFKC, trimmed, inner runs of spaces as one; raise
    :class:`NameRefused` when it breaks a rule.

    >>> normal("  Ada   Lovelace ")
    'Ada Lovelace'
    >>> normal("अनु")
    'अनु'
    >>> normal("\uff21\uff44\uff41")  # fullwidth
    'Ada'
    >>> normal("a\u202eb")
    Traceback (most recent call last):
    ...
    app.service.names.NameRefused: display name refused: characters
    >>> normal("...")
    Traceback (most recent call last):
    ...
    app.service.names.NameRefused: display name refused: empty
    >>> normal("b" + "\u0301\u0302\u0303\u0304")
    Traceback (most recent call last):
    ...
    app.service.names.NameRefused: display name refused: marks
    """
    if blank(text):
        raise NameRefused("blank")
    name = " ".join(part for part in unicodedata.normalize("NFKC", text).split(" ") if part)
    if len(name) > MAX_LENGTH:
        raise NameRefused("long")
    if not all(_allowed(character) for character in name):
        raise NameRefused("characters")
    if unicodedata.category(name[0]).startswith("M"):
        raise NameRefused("characters")  # a mark must follow a letter
    if _stacked(name):
        raise NameRefused("marks")
    if not any(_letter_or_digit(character) for character in name):
        raise NameRefused("empty")
    if site_like(name):
        raise NameRefused("site")
    return name


def _stacked(name: str) -> bool:
    """More than :data:`MOST_MARKS` combining marks on a letter, or one mark twice in a
    row (the letters decomposed: a precomposed letter's own marks count too)."""
    run, previous = 0, ""
    for character in unicodedata.normalize("NFD", name):  # é and a second acute: two
        if unicodedata.category(character).startswith("M"):
            run += 1
            if run > MOST_MARKS or character == previous:
                return True
        else:
            run = 0
        previous = character
    return False


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
    """What two names must not share: a digest of the confusable skeleton (Unicode TR39)
    of the name case-folded and NFKC-normalised, so ``Ada``, ``ADA`` and ``Ada`` with
    Cyrillic As share one. A digest, because a skeleton can be several times longer than the name
    (a Hangul syllable's is seven letters).

    >>> key("Ada") == key("ADA") == key("\u0410d\u0430") == key("\U0001d400da")
    True
    >>> key("Ada") == key("Ida")
    False
    """
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    skeleton = _spoof_checker().getSkeleton(0, folded)
    return hashlib.sha256(skeleton.encode()).hexdigest()


# Cached: one checker for the process (no arguments).
@cache
def _spoof_checker() -> icu.SpoofChecker:
    return icu.SpoofChecker()


def site_like(name: str) -> bool:
    """The name, its numbers set aside, looks like one of the site's words in one of its
    languages: ``anonymous 1``, ``Player7``, ``गुमनाम १``, ``ANONYMOUS l``.

    >>> site_like("anonymous 12") and site_like("Player-1") and site_like("player l")
    True
    >>> site_like("\u0645\u062c\u0647\u0648\u0644 \u0661")  # "anonymous 1" in Arabic
    True
    >>> site_like("\u0932\u0948\u0932\u093e 7") or site_like("Ana 1") or site_like("Agent 0")
    False
    """
    bare = _bare(name)
    return bool(bare) and bare in _site_keys()


def _bare(text: str) -> str:
    """The key of ``text`` without its numbers, separators or Arabic article: digits of
    any script, and the letters drawn as digits (``l`` and ``O``, whose skeletons are a
    digit's), set aside where they stand alone or at either end ("" when nothing is left).
    Only ever compared with the site's few words, so setting aside too much refuses
    nothing else."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    words = []
    for word in _SEPARATORS.split(folded):
        if not word or all(_digit_like(character) for character in word):
            continue
        if word.startswith(ARTICLE) and len(word) > len(ARTICLE) + 1:
            word = word[len(ARTICLE) :]
        words.append(word)
    core = "".join(c for c in "".join(words) if unicodedata.category(c) != "Nd")
    start, end = 0, len(core)
    while start < end and _digit_like(core[start]):
        start += 1
    while end > start and _digit_like(core[end - 1]):
        end -= 1
    return key(core[start:end]) if start < end else ""


def _digit_like(character: str) -> bool:
    return unicodedata.category(character) == "Nd" or (
        _spoof_checker().getSkeleton(0, character) in _digit_skeletons()
    )


# Cached: computed once (no arguments); a few hundred short strings.
@cache
def _digit_skeletons() -> frozenset[str]:
    """The confusable skeletons of every decimal digit of every script (``1`` is ``l``)."""
    checker = _spoof_checker()
    return frozenset(checker.getSkeleton(0, digit) for digit in icu.UnicodeSet("[:Nd:]"))


# Cached: the site's own words, computed once (no arguments).
@cache
def _site_keys() -> frozenset[str]:
    """The keys of the site's own words in every language it speaks, their numbers'
    placeholders set aside (as :func:`_bare` sets a name's numbers aside)."""
    words: set[str] = set()
    for code in i18n.LOCALES:
        with i18n.use_locale(code):
            words.update(i18n.gettext(word).replace("%(num)s", "") for word in SITE_WORDS)
    return frozenset(filter(None, map(_bare, words)))


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
