"""The shared word helpers (app/words.py) in each language: card names, the language's
full stop, quotes and comma, cards spoken in words."""

from __future__ import annotations

from datetime import datetime

import pytest

from app import i18n
from app.games.freecell.rules import new_game
from app.games.freecell.words import describe, room
from app.rules.cards import Card
from app.words import card_name, cards_in_words, fill, joined, quoted, sentence, spoken

FSI, PDI = "\u2068", "\u2069"


@pytest.mark.parametrize(
    ("lang", "card", "name"),
    [
        ("en", Card(7, "C"), "7 of clubs"),
        ("en", Card(12, "S"), "queen of spades"),
        ("hi", Card(7, "C"), "चिड़ी का 7"),
        ("hi", Card(12, "S"), "हुकुम की बेगम"),
        ("hi", Card(11, "H"), "पान का गुलाम"),
        ("hi", Card(1, "D"), "ईंट का इक्का"),
        ("ar", Card(11, "H"), "ولد الكبة"),
        ("ar", Card(6, "D"), "6 الديناري"),
    ],
)
def test_a_card_is_named_as_the_seeds_name_it(lang: i18n.LocaleCode, card: Card, name: str) -> None:
    with i18n.use_locale(lang):
        assert card_name(card) == name


@pytest.mark.parametrize(
    ("lang", "text", "said"),
    [
        ("en", "8♣ to B7", "8♣ to B7."),
        ("en", "you won!", "You won!"),
        ("hi", "8♣: B7 में", "8♣: B7 में।"),
        ("hi", "पहले से पूरा।", "पहले से पूरा।"),
        ("ar", f"{FSI}8♣{PDI} إلى {FSI}B7{PDI}", f"{FSI}8♣{PDI} إلى {FSI}B7{PDI}."),
        ("ar", "هل ما زال الفوز ممكنًا؟", "هل ما زال الفوز ممكنًا؟"),
    ],
)
def test_a_sentence_ends_with_the_languages_stop(
    lang: i18n.LocaleCode, text: str, said: str
) -> None:
    with i18n.use_locale(lang):
        assert sentence(text) == said


@pytest.mark.parametrize(
    ("lang", "typed", "shown"),
    [
        ("en", "'zz'", "“zz”"),
        ("en", "x9", "“x9”"),
        ("hi", "'zz'", "“zz”"),
        ("ar", "'zz'", f"«{FSI}zz{PDI}»"),
        ("ar", '"it\'s"', f"«{FSI}it's{PDI}»"),
    ],
)
def test_what_the_player_typed_is_quoted_in_the_languages_quotes(
    lang: i18n.LocaleCode, typed: str, shown: str
) -> None:
    with i18n.use_locale(lang):
        assert quoted(typed) == shown


def test_lists_are_joined_with_the_languages_comma() -> None:
    with i18n.use_locale("en"):
        assert joined(["3", "5", "7"]) == "3, 5, 7"
    with i18n.use_locale("ar"):
        assert joined(["3", "5", "7"]) == "3، 5، 7"
        assert cards_in_words([Card(9, "C"), Card(8, "H")]) == "9 السباتي، 8 الكبة"


def test_cards_are_spoken_in_words() -> None:
    with i18n.use_locale("hi"):
        assert spoken("हाथ में 6♣: चुनें") == "हाथ में चिड़ी का 6: चुनें"
        assert spoken("10♦ और Q♠") == "ईंट का 10 और हुकुम की बेगम"
    with i18n.use_locale("en"):
        assert spoken("K♥ home from column 3") == "king of hearts home from column 3"
        assert spoken("A1 is a gap") == "A1 is a gap"


@pytest.mark.parametrize(
    ("lang", "cells", "columns", "other", "words"),
    [
        ("en", 2, 0, False, "with 2 empty free cells and no empty column"),
        ("en", 0, 1, True, "with no empty free cell and 1 other empty column"),
        ("en", 0, 0, False, "with no empty free cell and no empty column"),
        ("hi", 3, 0, False, "3 खाली फ्री सेल होने और कोई खाली कॉलम न होने पर"),
        ("ar", 2, 2, False, "مع خانتين حرتين فارغتين وعمودين فارغين"),
        ("ar", 1, 0, True, "مع خانة حرة فارغة واحدة وبلا عمود فارغ آخر"),
    ],
)
def test_a_runs_room_has_words_for_none_one_two_and_many(
    lang: i18n.LocaleCode, cells: int, columns: int, other: bool, words: str
) -> None:
    with i18n.use_locale(lang):
        assert room(cells, columns, other).replace(FSI, "").replace(PDI, "") == words


def test_a_move_says_into_a_free_cell_and_onto_a_column_in_hindi() -> None:
    deal = new_game(1)
    into_cell = deal.parse_action("1a")
    board, onto_column = next(
        (board, move)
        for board in map(new_game, range(2, 40))
        for move in board.legal_moves()
        if move.target.isdigit()
    )
    with i18n.use_locale("hi"):
        assert describe("move", into_cell, deal, deal.play(into_cell)).endswith("फ्री सेल a में")
        words = describe("move", onto_column, board, board.play(onto_column))
        assert words.endswith(f"कॉलम {onto_column.target} पर")


def test_a_moment_joins_date_and_time_as_the_language_does() -> None:
    when = datetime(2026, 11, 30, 22, 25)
    with i18n.use_locale("en"):
        assert i18n.moment(when) == "Nov 30, 2026, 22:25"
    with i18n.use_locale("ar"):
        assert i18n.moment(when).endswith("2026، 22:25")


def test_a_refusal_quotes_what_was_typed_in_the_languages_quotes() -> None:
    """The engine quotes the player's text with ``!r``; the sentence shows it in the
    language's own quotes instead."""
    template = "%(text)s is not a cell (cells are A1 to D13)."
    with i18n.use_locale("en"):
        assert fill(template, {"text": "'Z9'"}) == "“Z9” is not a cell (cells are A1 to D13)."
    with i18n.use_locale("ar"):
        assert fill("%(text)s", {"text": "'Z9'"}) == f"«{FSI}Z9{PDI}»"


def test_a_card_before_a_postposition_is_said_in_its_oblique_form() -> None:
    with i18n.use_locale("hi"):
        assert spoken("6♣ को 6♠ पर नहीं रखा जा सकता") == "चिड़ी के 6 को हुकुम के 6 पर नहीं रखा जा सकता"
        assert spoken("A♦: कॉलम 3 से नींव पर") == "ईंट का इक्का: कॉलम 3 से नींव पर"
        assert card_name(Card(1, "D"), oblique=True) == "ईंट के इक्के"
    with i18n.use_locale("en"):
        assert spoken("K♠ to column 3") == "king of spades to column 3"
