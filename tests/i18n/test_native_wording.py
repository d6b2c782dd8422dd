"""What a native reader of Hindi and Arabic found unnatural (issue 23), each pinned: the
words the code builds, not only the catalogue's."""

from __future__ import annotations

import re
from datetime import date

import pytest

from app import i18n
from app.words import spoken
from tests.i18n.catalogues import catalogue

FSI, PDI = "\u2068", "\u2069"


def test_a_run_is_spoken_as_a_list() -> None:
    with i18n.use_locale("hi"):
        assert (
            spoken("कॉलम 3 के ढेर (7♣ 6♥) का कोई भी पत्ता 8♠ पर नहीं रखा जा सकता।")
            == "कॉलम 3 के ढेर (चिड़ी का 7, पान का 6) का कोई भी पत्ता हुकुम के 8 पर नहीं रखा जा सकता।"
        )
    with i18n.use_locale("ar"):
        assert spoken(f"({FSI}7♣ 6♥{PDI})") == f"({FSI}7 السباتي، 6 الكبة{PDI})"
    with i18n.use_locale("en"):
        assert spoken("run 7♣ 6♥ 5♠") == "run 7 of clubs, 6 of hearts, 5 of spades"


def test_cards_joined_before_a_postposition_are_all_oblique() -> None:
    with i18n.use_locale("hi"):
        assert (
            spoken("वहाँ केवल 10♦ या 10♥ को रखा जा सकता है।")
            == "वहाँ केवल ईंट के 10 या पान के 10 को रखा जा सकता है।"
        )
        assert spoken("Q♠ और K♠ पर") == "हुकुम की बेगम और हुकुम के बादशाह पर"
        # Not before a postposition: the plain names.
        assert spoken("10♦ और Q♠") == "ईंट का 10 और हुकुम की बेगम"
        assert spoken("7♣ 6♥ को") == "चिड़ी के 7, पान के 6 को"


def test_an_arabic_deal_number_is_isolated_with_its_hash() -> None:
    """After an Arabic letter «#7» would show as «7#»: every «#N» of an Arabic message is
    between LRI and PDI (GLOSSARY.md, Direction)."""
    problems = []
    for message in catalogue("ar"):
        forms = [message.string] if isinstance(message.string, str) else message.string
        for form in forms:
            for found in re.finditer(r"#(?:%\(\w+\)[sd]|N\b|\d+)", form):
                before, after = form[: found.start()], form[found.end() :]
                if not (before.endswith("\u2066") and after.startswith("\u2069")):
                    problems.append(f"{message.id!r}: {form!r}")
    assert not problems, "\n".join(problems)


def test_no_arabic_plural_form_repeats_its_number_in_brackets() -> None:
    problems = []
    for message in catalogue("ar"):
        if not message.pluralizable:
            continue
        for form in message.string:
            for found in re.findall(r"\(%\(\w+\)[sd]\)", form):
                if found not in message.id[1]:
                    problems.append(f"{message.id[0]!r}: {form!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    ("singular", "plural", "zero", "one"),
    [
        ("Played %(num)s time", "Played %(num)s times", "لم تُلعب بعد", "لُعبت مرة واحدة"),
        (
            "Played %(num)s time today",
            "Played %(num)s times today",
            "لم تُلعب اليوم بعد",
            "لُعبت اليوم مرة واحدة",
        ),
        ("won %(num)s time", "won %(num)s times", "لم يفز بها أحد بعد", "فاز بها مرة واحدة"),
        (
            "Your streak: %(num)s day",
            "Your streak: %(num)s days",
            "انتصاراتك المتتالية: لا أيام بعد",
            "انتصاراتك المتتالية: يوم واحد",
        ),
    ],
)
def test_arabic_says_none_and_one_in_words(singular: str, plural: str, zero: str, one: str) -> None:
    with i18n.use_locale("ar"):
        assert i18n.ngettext(singular, plural, 0) % {"num": "0"} == zero
        assert i18n.ngettext(singular, plural, 1) % {"num": "1"} == one


def test_arabic_names_without_latin_or_a_partitive() -> None:
    with i18n.use_locale("ar"):
        assert i18n.gettext("Gaps") == "الفراغات"
        assert i18n.gettext("Two free cells") == "خانتان حرتان"


@pytest.mark.parametrize(
    ("code", "shown"), [("en", "Dec 2, 2026"), ("hi", "2 दिस॰ 2026"), ("ar", "2 ديسمبر 2026")]
)
def test_a_day_names_its_month_in_every_language(code: i18n.LocaleCode, shown: str) -> None:
    with i18n.use_locale(code):
        assert i18n.day(date(2026, 12, 2)) == shown
