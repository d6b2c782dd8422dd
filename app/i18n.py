"""Languages: the active locale, gettext for every word a player sees, Babel formatting.

The site speaks English, Hindi and Arabic. The locale of the request being answered lives
in a context variable (set by :class:`app.web.language.Language` for each request), so any
layer may word a message with ``gettext``/``ngettext`` without passing the locale along.
Catalogues are ``locales/<lang>/LC_MESSAGES/messages.po``, compiled in memory on first use
(no build step, nothing binary in the repository).

``qps`` is a pseudo-locale for tests: every message that went through gettext comes out
marked ``⟦…⟧``, so a test can find text that did not.

>>> with use_locale("en"):
...     ngettext("%(num)s card", "%(num)s cards", 3) % {"num": 3}
'3 cards'
>>> with use_locale("qps"):
...     gettext("Undo")
'⟦Undo⟧'
"""

from __future__ import annotations

import gettext as _gettext
import io
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import date, datetime
from functools import cache
from typing import Final, Literal

from babel import Locale
from babel.dates import format_skeleton, get_datetime_format
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent, get_group_symbol
from babel.support import Translations

from app.config import ROOT

LocaleCode = Literal["en", "hi", "ar", "qps"]

LOCALES: Final[tuple[LocaleCode, ...]] = ("en", "hi", "ar")
"""The languages a player can choose, in the order the switch lists them."""
DEFAULT: Final[LocaleCode] = "en"
PSEUDO: Final[LocaleCode] = "qps"
"""Marks every translated message; reachable only when ``pseudo_locale`` is on (tests)."""

LOCALE_DIR: Final = ROOT / "locales"
DOMAIN: Final = "messages"


@dataclass(frozen=True, slots=True)
class Language:
    code: LocaleCode
    name: str
    """The language named in itself, as the switch shows it."""
    direction: Literal["ltr", "rtl"]


LANGUAGES: Final[dict[LocaleCode, Language]] = {
    "en": Language("en", "English", "ltr"),
    "hi": Language("hi", "हिन्दी", "ltr"),
    "ar": Language("ar", "العربية", "rtl"),
    "qps": Language("qps", "Pseudo", "ltr"),
}

_current: ContextVar[LocaleCode] = ContextVar("locale", default=DEFAULT)


def current() -> LocaleCode:
    return _current.get()


def babel_locale() -> str:
    """The Babel locale to format numbers and dates in (the pseudo-locale formats as en)."""
    code = _current.get()
    return DEFAULT if code == PSEUDO else code


def set_locale(code: LocaleCode) -> None:
    """Make ``code`` the locale of the running request (or task)."""
    _current.set(code)


@contextmanager
def use_locale(code: LocaleCode) -> Iterator[None]:
    token = _current.set(code)
    try:
        yield
    finally:
        _current.reset(token)


class _Pseudo(_gettext.NullTranslations):
    """Every message marked, plural forms chosen as English chooses them."""

    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"⟦{msgid1 if n == 1 else msgid2}⟧"

    def pgettext(self, context: str, message: str) -> str:
        return f"⟦{message}⟧"


# Cached: one catalogue per language the site speaks (a small fixed domain).
@cache
def translations(code: LocaleCode) -> _gettext.NullTranslations:
    """The catalogue for ``code``, compiled from its ``.po`` file once per process."""
    if code == PSEUDO:
        return _Pseudo()
    path = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
    if code == DEFAULT or not path.exists():
        return _gettext.NullTranslations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=code)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


def gettext(message: str) -> str:
    return translations(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translations(_current.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return translations(_current.get()).pgettext(context, message)


_ = gettext


def negotiate(accept_language: str | None) -> LocaleCode:
    """The best of our languages for an ``Accept-Language`` header (English if none fits).

    >>> negotiate("ar-EG,ar;q=0.9,en;q=0.5")
    'ar'
    >>> negotiate("fr-CH, hi;q=0.8")
    'hi'
    >>> negotiate("de")
    'en'
    """
    if not accept_language:
        return DEFAULT
    choices: list[tuple[float, int, str]] = []
    for index, part in enumerate(accept_language.split(",")[:32]):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag and quality > 0:
            choices.append((-quality, index, tag.lower()))
    for _q, _i, tag in sorted(choices):
        primary = tag.split("-")[0]
        for code in LOCALES:
            if primary == code:
                return code
    return DEFAULT


def language_of(code: str | None) -> LocaleCode | None:
    """``code`` if it names one of our languages (or the pseudo-locale), else ``None``."""
    for known in (*LOCALES, PSEUDO):
        if code == known:
            return known
    return None


def direction() -> Literal["ltr", "rtl"]:
    return LANGUAGES[_current.get()].direction


def plural_forms(code: LocaleCode) -> int:
    """How many plural forms the language has (Arabic 6, Hindi 2, English 2)."""
    return len(Locale.parse(code).plural_form.tags) + 1 if code != PSEUDO else 2


def isolate(text: object) -> str:
    """``text`` between Unicode first-strong and pop isolates (U+2068 … U+2069), so a
    card, a cell, notation or a number keeps its own direction inside a right-to-left
    sentence built in Python. Templates use ``<bdi>`` instead.

    Only a right-to-left language needs them (in a left-to-right paragraph notation
    already runs its own way), so elsewhere the text comes back as it is.

    >>> with use_locale("ar"):
    ...     isolate("B7")
    '\u2068B7\u2069'
    >>> isolate("B7")
    'B7'
    """
    return f"\u2068{text}\u2069" if direction() == "rtl" else str(text)


def number(value: int | float) -> str:
    """A number in the active locale's style (Latin digits in all three languages).

    Babel formats through ``decimal`` with 28 digits of precision: a number read from a
    player is cut by :func:`whole_number` before it gets here."""
    return format_decimal(value, locale=babel_locale())


MOST_DIGITS: Final = 18
"""Digits a number typed by a player may have (leading zeros aside): far beyond any deal
or page, and far within what Babel can format and a database column can hold."""
GROUP_SEPARATORS: Final = frozenset(",_\u066c")
"""Digit-group separators read in every language besides the reader's own (Babel's): the
comma, the underscore, the Arabic thousands separator (U+066C); spaces of any kind too."""

NumberProblem = Literal["shape", "long"]


class NotANumber(ValueError):
    """Text that is no whole number (``shape``: a sign, a point, an exponent, a letter),
    or one with more digits than asked for (``long``)."""

    def __init__(self, problem: NumberProblem) -> None:
        super().__init__(f"not a whole number: {problem}")
        self.problem = problem


def whole_number(text: str, *, most_digits: int = MOST_DIGITS) -> int | None:
    """A whole number as a reader types it; None when nothing (or only spaces) was typed.

    Spaces around and inside it and digit groups are fine (the reader's language's
    separator, a comma, ``_``, the Arabic U+066C), and so are the reader's own digits:
    Devanagari (U+0966-U+096F), Arabic-Indic (U+0660-U+0669), any decimal digit of
    Unicode. A sign, a decimal point, an exponent or any other character raises
    :class:`NotANumber` (``shape``), and so do more than ``most_digits`` digits
    (``long``), before any arithmetic or formatting.

    >>> whole_number(" 17 "), whole_number("1,000"), whole_number("")
    (17, 1000, None)
    >>> with use_locale("hi"):  # 10,00,000 in Devanagari digits
    ...     whole_number("\u0967\u0966,\u0966\u0966,\u0966\u0966\u0966")
    1000000
    >>> with use_locale("ar"):  # 1٬000 in Arabic-Indic digits
    ...     whole_number("\u0661\u066c\u0660\u0660\u0660")
    1000
    >>> whole_number("1e5")
    Traceback (most recent call last):
    ...
    app.i18n.NotANumber: not a whole number: shape
    >>> whole_number("9" * 26)
    Traceback (most recent call last):
    ...
    app.i18n.NotANumber: not a whole number: long
    """
    separators = GROUP_SEPARATORS | {get_group_symbol(babel_locale())}
    digits: list[str] = []
    for character in text:
        if character.isspace() or character in separators:
            continue
        if unicodedata.category(character) != "Nd":  # not ², nor ½, nor a sign
            raise NotANumber("shape")
        digits.append(str(unicodedata.decimal(character)))
    if not digits:
        if text.strip():
            raise NotANumber("shape")  # separators alone
        return None
    significant = "".join(digits).lstrip("0") or "0"
    if len(significant) > most_digits:
        raise NotANumber("long")
    return int(significant)


def percent(fraction: float, digits: int = 0) -> str:
    """``0.456`` → ``'46%'`` (en), ``'46%'`` (hi), ``'46%'`` (ar), per Babel."""
    pattern = "#,##0" + ("." + "0" * digits if digits else "") + "%"
    return format_percent(fraction, format=pattern, locale=babel_locale())


def day(value: date) -> str:
    """A date with its month named, in the active locale's order (``Dec 2, 2026``,
    «2 दिस॰ 2026», «2 ديسمبر 2026»): Babel's medium Arabic date is all digits
    (``02‏/12‏/2026``), so the day is asked for by skeleton, as :func:`moment` asks.

    >>> from datetime import date
    >>> with use_locale("ar"):
    ...     day(date(2026, 12, 2))
    '2 ديسمبر 2026'
    """
    return format_skeleton("yMMMd", value, locale=babel_locale())


def moment(value: datetime) -> str:
    """A date and a 24-hour time in the active locale, joined as the locale joins them
    (``Nov 30, 2026, 22:25``; Arabic with its comma ،)."""
    locale = babel_locale()
    when = format_skeleton("yMMMd", value, locale=locale)
    time = format_skeleton("Hm", value, locale=locale)
    return str(get_datetime_format("medium", locale=locale)).format(time, when)


def decimal(value: float, digits: int = 1) -> str:
    """A number with ``digits`` decimals in the active locale's style."""
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(value, format=pattern, locale=babel_locale())


def listing(items: list[str]) -> str:
    """``'A, B and C'`` in the reader's language (Babel's list patterns)."""
    return format_list(items, locale=babel_locale())


def either(items: list[str]) -> str:
    """``'A, B or C'`` in the reader's language (Babel's "or" list patterns)."""
    return format_list(items, style="or", locale=babel_locale())
