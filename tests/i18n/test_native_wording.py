"""What a native reader of Hindi and Arabic found unnatural (issue 23), each pinned: the
words the code builds, not only the catalogue's."""

from __future__ import annotations

import re
from datetime import date

import pytest

from app import i18n
from app.games.freecell.rules import parse
from app.games.freecell.view import FreeCellBoard, FreeCellPlace, board
from app.games.montana.view import MontanaCell
from app.rules.cards import Card
from app.web.templating import make_templates
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


RUN_TABLE = """Foundations: H-10 S-10 C-K D-K
KH QS JH
KS QH JS
"""
"""Two columns of three cards, six empty: J♥ can go anywhere, Q♥ J♠ to an empty column."""


@pytest.mark.parametrize(
    ("code", "one", "two"),
    [
        (
            "hi",
            "हाथ में J♥ है: इसे कॉलम 3 पर, कॉलम 4 पर, कॉलम 5 पर, कॉलम 6 पर, कॉलम 7 पर, कॉलम 8 पर,"
            " किसी फ्री सेल में या नींव पर रखा जा सकता है।",
            "हाथ में Q♥ से शुरू होने वाले 2 पत्ते हैं: इन्हें कॉलम 3 पर, कॉलम 4 पर, कॉलम 5 पर,"
            " कॉलम 6 पर, कॉलम 7 पर या कॉलम 8 पर रखा जा सकता है।",
        ),
        (
            "ar",
            f"في يدك {FSI}J♥{PDI}: يمكن نقل الورقة إلى العمود 3 أو إلى العمود 4 أو إلى العمود 5"
            " أو إلى العمود 6 أو إلى العمود 7 أو إلى العمود 8 أو إلى خانة حرة أو إلى الأساس.",
            f"في يدك ورقتان ابتداءً من {FSI}Q♥{PDI}: يمكن نقل الورقتين إلى العمود 3 أو إلى"
            " العمود 4 أو إلى العمود 5 أو إلى العمود 6 أو إلى العمود 7 أو إلى العمود 8.",
        ),
    ],
)
def test_the_holding_note_agrees_and_each_place_has_its_postposition(
    code: i18n.LocaleCode, one: str, two: str
) -> None:
    position = parse(RUN_TABLE)
    with i18n.use_locale(code):
        for pick, note in (("1:1", one), ("2:2", two)):
            table = board(position, pick=pick)
            assert table.selection is not None
            assert holding_note(table) == note


def holding_note(table: FreeCellBoard) -> str:
    """The pick note's words, as templates/freecell/_pick_note.html renders them."""
    assert table.selection is not None
    html = (
        make_templates()
        .env.get_template("freecell/_pick_note.html")
        .render(board=table, game_url="/games/x")
    )
    found = re.search(r"<span>(.*?)\s*<a ", html, re.DOTALL)
    assert found, html
    return found[1]


def test_a_card_before_a_postposition_is_named_oblique_in_labels() -> None:
    with i18n.use_locale("hi"):
        gap = MontanaCell("B9", None, "open", fits=Card(10, "S"))
        assert gap.label == "रिक्त स्थान, पंक्ति B, कॉलम 9: इसमें हुकुम के 10 को रखा जा सकता है"
        assert gap.tip == "रिक्त स्थान B9: इसमें हुकुम के 10 को रखा जा सकता है"
        home = FreeCellPlace("foundation", "D", (Card(1, "D"),))
        assert home.label == "ईंट का नींव क्षेत्र, ईंट के इक्के तक"
    with i18n.use_locale("ar"):
        assert MontanaCell("B9", None, "open", fits=Card(10, "S")).tip == (
            f"الفراغ {FSI}B9{PDI}: يطلب 10 البستوني"
        )
