"""FreeCell's variants: each is a value over the same rules; its deal, its build rule, what
an empty column takes, its supermove limit and its text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app import i18n
from app.games.freecell.rules import (
    RULES,
    VARIANT_VALUES,
    VARIANTS,
    FreeCellMove,
    new_game,
    parse,
)
from app.games.freecell.solver import replay_wins, solve
from app.games.freecell.words import REFUSALS
from app.rules.cards import Card
from app.rules.parts import ALTERNATE_COLOURS, ANY_SUIT, SAME_SUIT, supermove_limit
from app.rules.protocol import IllegalMoveError, InvalidMoveError, InvalidPositionError

EIGHT_OFF_1 = """\
Variant: eight-off
Freecells: 6S - 9C - 2H - 6H -
: JD KD 2S 4C 3S 6D
: 2D KC KS 5C TD 8S
: 9H 9S 9D TS 4S 8D
: JC 5S QD QH TH QS
: 5D AD JS 4H 8H 6C
: 7H QC AS AC 2C 3D
: 7C KH AH 4D JH 8C
: 5H 3H 3C 7S 7D TC
"""

SEAHAVEN_1 = """\
Variant: seahaven
Freecells: - 2H 6H -
: JD 9S JS 4D 6D
: 2D 5S AS 7S 8S
: 9H AD AH 3S 8D
: JC QC 3C TD QS
: 5D KH 4C 4S 6C
: 7H 3H 5C TH 3D
: 7C 2S TS 8H 8C
: 5H KS QH 2C TC
: KD 9D 4H JH 6S
: KC QD AC 7D 9C
"""


def c(text: str) -> Card:
    return Card.parse(text)


def test_every_variant_is_listed_once_standard_first() -> None:
    assert VARIANTS == (
        "standard",
        "bakers",
        "cells-3",
        "cells-2",
        "cells-1",
        "eight-off",
        "seahaven",
        "forecell",
    )
    assert RULES.variants == VARIANTS and RULES.default_variant == "standard"


@pytest.mark.parametrize(
    ("variant", "text"), [("eight-off", EIGHT_OFF_1), ("seahaven", SEAHAVEN_1)]
)
def test_golden_deals(variant: str, text: str) -> None:
    assert new_game(1, variant).to_text() == text
    assert parse(text) == new_game(1, variant)


def test_the_tableau_variants_deal_as_standard() -> None:
    """Baker's Game and fewer free cells lay deal N out as FreeCell's deal N."""
    for variant in ("bakers", "cells-3", "cells-2", "cells-1"):
        position = new_game(11982, variant)
        assert position.columns == new_game(11982).columns
        assert len(position.cells) == VARIANT_VALUES[variant].cells
        assert position.to_text().startswith(f"Variant: {variant}\n")


@pytest.mark.parametrize(
    ("variant", "moves", "onto_card"),
    # perft(1) from deal 1 and the supermove limit at the start.
    [
        ("standard", 32, 5),
        ("bakers", 34, 5),
        ("cells-3", 24, 4),
        ("cells-2", 16, 3),
        ("cells-1", 8, 2),
        ("eight-off", 33, 5),
        ("seahaven", 22, 3),
    ],
)
def test_move_counts_from_deal_1(variant: str, moves: int, onto_card: int) -> None:
    position = new_game(1, variant)
    assert len(position.legal_moves()) == moves
    assert position.max_run() == onto_card


@pytest.mark.parametrize("variant", ["standard", "bakers", "cells-2", "eight-off", "seahaven"])
def test_perft_2_counts_every_reply(variant: str) -> None:
    position = new_game(1, variant)
    total = sum(len(position.play(move).legal_moves()) for move in position.legal_moves())
    assert total == PERFT_2[variant]


PERFT_2 = {"standard": 792, "bakers": 890, "cells-2": 140, "eight-off": 845, "seahaven": 288}


def test_build_rules_as_values() -> None:
    assert ALTERNATE_COLOURS.fits(c("8H"), c("9S")) and not ALTERNATE_COLOURS.fits(c("8S"), c("9C"))
    assert SAME_SUIT.fits(c("8S"), c("9S")) and not SAME_SUIT.fits(c("8H"), c("9S"))
    assert ANY_SUIT.fits(c("8H"), c("9H")) and not ANY_SUIT.fits(c("7H"), c("9H"))
    assert SAME_SUIT.wanted(c("9S")) == (c("8S"),)
    assert ALTERNATE_COLOURS.wanted(c("9S")) == (c("8D"), c("8H"))
    assert ALTERNATE_COLOURS.wanted(c("AS")) == ()


def test_safe_cards_by_build_rule() -> None:
    """Building by suit, any card that can go home is safe: the card below it is home."""
    nothing_home = (0, 0, 0, 0)
    assert SAME_SUIT.is_safe(c("9H").index, nothing_home)
    assert not ALTERNATE_COLOURS.is_safe(c("5H").index, (3, 4, 4, 4))  # clubs only at 3
    assert ALTERNATE_COLOURS.is_safe(c("5H").index, (4, 0, 4, 4))
    assert not ANY_SUIT.is_safe(c("5H").index, (4, 3, 4, 4))


def test_supermove_limit_without_doubling() -> None:
    assert supermove_limit(3, 2, to_empty=False) == 16
    assert supermove_limit(3, 2, to_empty=False, doubling=False) == 4
    assert supermove_limit(3, 2, to_empty=True, doubling=False) == 4


BAKERS = """\
Variant: bakers
Foundations: H-0 C-0 D-0 S-0
: 9S 8S 7H
: 8H
: AC AD AH AS 2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S 5C 5D 5H 5S
: 6C 6D 6H 6S 7C 7D 7S 8C 8D 9C 9D 9H TC TD TH TS JC JD JH JS QC QD QH QS KC KD KH KS
"""


def test_bakers_builds_by_suit() -> None:
    position = parse(BAKERS)
    assert position.movable_run_length(0) == 1  # 7H does not lie on 8S by suit
    with pytest.raises(IllegalMoveError, match="only 6H goes on 7H") as error:
        position.parse_action("21")
    assert position.parse_action("12").count == 1  # 7H on 8H, by suit
    assert error.value.code == "freecell.wants_one"
    assert error.value.params["wanted"] == c("6H")


def test_kings_only_into_an_empty_column() -> None:
    text = """\
Variant: seahaven
Freecells: 5S - - -
: KS QS JS
: TS
:
: AC AD AH AS 2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S 6S 7S 8S 9S
: 5C 5D 5H 6C 6D 6H 7C 7D 7H 8C 8D 8H 9C 9D 9H TC TD TH JC JD JH QC QD QH KC KD KH
"""
    position = parse(text)
    with pytest.raises(IllegalMoveError, match="only a king goes into an empty column") as error:
        position.parse_action("23")
    assert error.value.code == "freecell.kings_only"
    with pytest.raises(IllegalMoveError, match="only a king"):
        position.parse_action("a3")
    move = position.parse_action("13")  # the run from the king
    assert move == FreeCellMove("1", "3", 3) and move.notation == "13v3"
    # A whole column is not listed as a move into an empty column (it only changes place).
    assert [m.notation for m in position.moves_from("1")] == ["1b", "1c", "1d"]
    # Three cards move into the empty column: 3 empty free cells, no doubling.
    assert position.max_run(to_empty=True) == 4
    assert position.action_between("1", "3", 3) == move


def test_eight_off_moves_as_many_cards_as_empty_cells_allow() -> None:
    position = new_game(1, "eight-off")
    assert position.max_run() == position.empty_cells + 1 == 5
    assert position.max_run(to_empty=True) == 5


@pytest.mark.parametrize(
    ("variant", "text", "message"),
    [
        ("standard", "9a", "not a column or free cell: '9'"),
        ("standard", "1e", "not a column or free cell: 'e'"),
        ("cells-2", "1c", "not a column or free cell: 'c'"),
        ("eight-off", "9a", "not a column or free cell: '9'"),
    ],
)
def test_places_the_variant_lacks(variant: str, text: str, message: str) -> None:
    with pytest.raises(InvalidMoveError, match=message):
        new_game(1, variant).parse_action(text)


def test_seahaven_tenth_column_is_0() -> None:
    position = new_game(1, "seahaven")
    assert position.card_at("0") == c("9C")
    assert "0b" not in [m.notation for m in position.legal_moves()]  # cell b is full
    assert "0a" in [m.notation for m in position.legal_moves()]
    assert position.play(position.parse_action("0a")).cells[0] == c("9C")


def test_old_text_reads_as_standard() -> None:
    """Positions stored before variants existed carry no Variant line."""
    text = new_game(7).to_text()
    assert "Variant" not in text
    assert parse(text).variant.name == "standard"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Variant: spider\n", "line 1: not a FreeCell variant: 'spider'"),
        ("Variant: bakers\nVariant: bakers\n", "line 2: a second Variant line"),
        ("Variant: cells-2\nFreecells: - - 5C\n", "line 2: 3 free cells, this game has 2"),
        ("Variant: seahaven\n" + ":\n" * 11, "line 12: a column too many, this game has 10"),
    ],
)
def test_variant_parse_errors(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        parse(text)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(1, 1_000_000), st.integers(0, 2**32))
def test_text_round_trips_through_random_play(variant: str, deal: int, seed: int) -> None:
    position = new_game(deal, variant)
    for step in range(12):
        assert parse(position.to_text()) == position
        moves = position.legal_moves()
        if not moves:
            break
        position = position.play(moves[(seed >> step) % len(moves)])
        cards = [card for column in position.columns for card in column]
        cards += [card for card in position.cells if card]
        assert len(cards) + sum(position.foundations) == 52


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_solver_wins_a_deal_of_each_variant(variant: str) -> None:
    deal = 3 if variant == "cells-1" else 1
    for number in range(deal, deal + 40):
        position = new_game(number, variant)
        result = solve(position, max_seconds=3)
        if result.verdict == "solved":
            assert replay_wins(position, result.moves)
            return
    pytest.fail(f"no deal of {variant} solved")


# -- Forecell (PySolFC's ForeCell) ---------------------------------------------------------

FORECELL_2 = """\
Variant: forecell
Freecells: AS 5S TH JH
: QD 4D TD 7S AH 3H
: QC JD JC 9D 9S AD
: KC JS 8C KS TC 7H
: 3C 6H 6C 7C 2S 3D
: 4C QS 8S 6S 3S 5H
: 2C 6D 4S 4H TS 8D
: KD 2D 5D AC 9H KH
: 5C 9C QH 8H 2H 7D
"""

FORECELL_RUNS = """\
Variant: forecell
Foundations: H-5 C-5 D-5 S-5
Freecells: 6S 6H - -
: KS QH JS TH 9S 8H 7S 6D
: KH QS JH TS 9H 8S 7H 6C
: KC KD QC QD JC JD TC 9C 8C 8D 7C 7D 9D
: TD
"""
"""Two empty free cells and four empty columns: standard FreeCell moves 3 × 2⁴ = 48 cards
onto a card here, Forecell 3."""


def test_forecell_deals_48_cards_to_the_columns_and_the_last_four_to_the_cells() -> None:
    """Microsoft's deal #2 laid out as PySolFC lays ForeCell: six rows across the eight
    columns, then the last four cards dealt into free cells a to d."""
    position = new_game(2, "forecell")
    assert position.to_text() == FORECELL_2
    assert parse(FORECELL_2) == position
    standard = new_game(2)
    assert position.columns == tuple(column[:6] for column in standard.columns)
    assert position.cells == tuple(column[6] for column in standard.columns[:4])


def test_forecell_takes_only_a_king_into_an_empty_column() -> None:
    position = parse(FORECELL_RUNS)
    for text, card in (("45", "TD"), ("a5", "6S"), ("15v3", "8H")):
        with pytest.raises(IllegalMoveError, match=f"{card} cannot go into empty column 5"):
            position.parse_action(text)
    assert all(move.target not in "5678" for move in position.legal_moves())
    # A run from a king goes into an empty column, as long as the free cells carry it.
    king_run = parse(FORECELL_KING)
    assert king_run.max_run(to_empty=True) == 4
    move = king_run.parse_action("56")
    assert move == FreeCellMove("5", "6", 4) and move.notation == "56v4"
    assert king_run.play(move).columns[5] == tuple(map(c, ["KH", "QS", "JH", "TS"]))


FORECELL_KING = """\
Variant: forecell
Foundations: H-5 C-5 D-5 S-5
Freecells: 6S - - -
: KS QH JS TH 9S 8H 7S 6D
: 9H 8S 7H 6C
: KC KD QC QD JC JD TC 9C 8C 8D 7C 7D 9D
: TD 6H
: KH QS JH TS
"""


def test_forecell_supermoves_count_free_cells_only() -> None:
    position = parse(FORECELL_RUNS)
    assert (position.empty_cells, position.empty_columns) == (2, 4)
    assert position.max_run() == position.max_run(to_empty=True) == 3
    assert position.parse_action("23") == FreeCellMove("2", "3", 3)  # 8S 7H 6C onto 9D
    with pytest.raises(IllegalMoveError, match="at most 3 cards move at once") as error:
        position.parse_action("14")  # 9S 8H 7S 6D onto TD: four cards
    assert error.value.code == "freecell.run_too_long"
    assert "(empty columns do not count here)" in str(error.value)
    assert error.value.params["doubling"] is False
    with pytest.raises(IllegalMoveError, match="a run of 8 cards cannot move into empty"):
        position.parse_action("15")  # the run from the king: eight cards
    # The same board in standard FreeCell: the empty columns double the run.
    standard = parse(FORECELL_RUNS.replace("Variant: forecell\n", ""))
    assert standard.max_run() == 48
    assert standard.parse_action("14") == FreeCellMove("1", "4", 4)


def test_a_forecell_deal_with_no_legal_move_is_lost_from_the_start() -> None:
    """Deal #1 opens with the four cells full and no card that fits anywhere."""
    position = new_game(1, "forecell")
    assert position.legal_moves() == () and not position.has_moves()
    assert (position.is_won(), position.is_stuck(), position.is_lost()) == (False, True, True)
    assert [deal for deal in range(1, 60) if new_game(deal, "forecell").is_lost()] == [1, 46]
    assert not new_game(2, "forecell").is_lost()


def test_forecell_move_counts_from_deal_2() -> None:
    position = new_game(2, "forecell")
    assert [move.notation for move in position.legal_moves()] == ["2h", "ah"]
    assert sum(len(position.play(move).legal_moves()) for move in position.legal_moves()) == 11


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "with 2 empty free cells (empty columns do not count in this game), at most 3"),
        ("hi", "2 खाली फ्री सेल होने पर (इस गेम में खाली कॉलम नहीं गिने जाते) एक साथ"),
        ("ar", "مع خانتين حرتين فارغتين (لا تُحسب الأعمدة الفارغة في هذه اللعبة)"),
    ],
)
def test_a_forecell_run_too_long_is_refused_without_counting_empty_columns(
    language: i18n.LocaleCode, words: str
) -> None:
    """The refusal says why in each language: the four empty columns do not help here."""
    with pytest.raises(IllegalMoveError) as error:
        parse(FORECELL_RUNS).parse_action("14")
    with i18n.use_locale(language):
        assert words in REFUSALS[error.value.code](error.value.params)
