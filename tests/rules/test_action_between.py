"""``Position.action_between``: the move a drag and drop names by its places, for both games.

The engine is the one place that writes move text: a page names the place a card comes from
and the place it goes to, and the position says which move that is (or why there is none).
"""

from __future__ import annotations

import random

import pytest

from app.games.freecell.rules import (
    CELL_NAMES,
    COLUMN_NAMES,
    HOME,
    FreeCellMove,
    FreeCellPosition,
)
from app.games.freecell.rules import new_game as freecell_deal
from app.games.freecell.rules import parse as freecell_parse
from app.games.montana.rules import MontanaMove, MontanaPosition, cell_name, parse_cell
from app.games.montana.rules import new_game as montana_deal
from app.rules.cards import Card
from app.rules.protocol import IllegalMoveError, InvalidMoveError, RuleError

# One empty free cell (d) and one empty column (8): 4 cards move onto a card, 2 into column
# 8. Column 1's run QH JC TH 9C 8H: from JC it fits on QD (4 cards), from QH on KS (5).
ONE_EMPTY_COLUMN = """\
Foundations: H-5 C-5 D-5 S-5
Freecells: 6C 6D 6H -
: 7S QH JC TH 9C 8H
: KD 8C KS
: 7C TC QD
: KC 7D 8D
: 9D TD JD QC
: 7H 9H JH KH
: 6S 8S 9S TS JS QS
:
"""

PLACES = (*COLUMN_NAMES, *CELL_NAMES, HOME)


# -- FreeCell ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "target", "count", "notation", "moved"),
    [
        ("1", "d", 1, "1d", 1),  # a column's card to a free cell
        ("a", "h", 1, "ah", 1),  # 6C home onto C-5
        ("a", "8", 1, "a8", 1),  # a free cell's card into an empty column
        ("1", "8", 1, "18", 1),  # one card into an empty column
        ("1", "8", 2, "18v2", 2),  # a run into an empty column
        ("1", "8", 5, "18v2", 2),  # as many as may move there: the rest stay
        ("1", "3", 1, "13", 4),  # onto a card the run that fits moves, whatever was held
        ("1", "3", 5, "13", 4),
    ],
)
def test_freecell_moves_between_places(
    source: str, target: str, count: int, notation: str, moved: int
) -> None:
    move = freecell_parse(ONE_EMPTY_COLUMN).action_between(source, target, count)
    assert isinstance(move, FreeCellMove)
    assert (move.notation, move.count) == (notation, moved)


@pytest.mark.parametrize(
    ("source", "target", "count", "error", "code"),
    [
        ("9", "1", 1, InvalidMoveError, "freecell.not_a_place"),
        ("h", "1", 1, InvalidMoveError, "freecell.not_a_place"),
        ("", "1", 1, InvalidMoveError, "freecell.not_a_place"),
        ("1", "x", 1, InvalidMoveError, "freecell.not_a_target"),
        ("1", "", 1, InvalidMoveError, "freecell.not_a_target"),
        ("1", "1", 1, InvalidMoveError, "freecell.same_place"),
        ("a", "b", 1, InvalidMoveError, "freecell.cell_to_cell"),
        ("1", "8", 0, InvalidMoveError, "freecell.no_cards"),
        ("1", "d", 2, InvalidMoveError, "freecell.several_only_columns"),
        ("1", "h", 2, InvalidMoveError, "freecell.several_only_columns"),
        ("d", "1", 1, IllegalMoveError, "freecell.empty_cell"),
        ("8", "1", 1, IllegalMoveError, "freecell.empty_column"),
        ("1", "a", 1, IllegalMoveError, "freecell.cell_full"),
        ("1", "h", 1, IllegalMoveError, "freecell.not_home_yet"),  # 8H onto H-5
        ("1", "2", 1, IllegalMoveError, "freecell.run_too_long"),  # QH … 8H on KS: 5 > 4
        ("2", "3", 1, IllegalMoveError, "freecell.king_to_empty"),  # KS on QD
    ],
)
def test_freecell_refuses_with_a_code(
    source: str, target: str, count: int, error: type[RuleError], code: str
) -> None:
    with pytest.raises(error) as caught:
        freecell_parse(ONE_EMPTY_COLUMN).action_between(source, target, count)
    assert caught.value.code == code


def test_a_run_longer_than_the_column_run_is_refused() -> None:
    position = freecell_parse(ONE_EMPTY_COLUMN)
    with pytest.raises(IllegalMoveError) as caught:
        position.action_between("2", "8", 2)  # column 2's run is KS alone
    assert caught.value.code == "freecell.run_too_short"


def _random_positions(deals: range, plies: int) -> list[FreeCellPosition]:
    positions = []
    for deal in deals:
        chance = random.Random(deal)
        position = freecell_deal(deal)
        for _ in range(plies):
            positions.append(position)
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(chance.choice(moves))
    return positions


FREECELL_POSITIONS = _random_positions(range(1, 9), 40)


def _as_composed_before(position: FreeCellPosition, source: str, target: str, count: int) -> str:
    """The move text the page used to compose for a drop or a held selection (site.js's
    ``dropNotation`` and ``boards.destination``), read by the position."""
    if target == source or (source in CELL_NAMES and target in CELL_NAMES):
        raise InvalidMoveError("no move", "")
    if target in COLUMN_NAMES and not position.columns[COLUMN_NAMES.index(target)]:
        moved = max(1, min(count, position.max_run(to_empty=True)))
        text = f"{source}{target}" + (f"v{moved:x}" if moved > 1 else "")
    elif target in COLUMN_NAMES or count == 1:
        text = f"{source}{target}"
    else:
        raise InvalidMoveError("no move", "")
    return position.parse_action(text).notation


def test_freecell_agrees_with_the_text_the_page_used_to_compose() -> None:
    compared = 0
    for position in FREECELL_POSITIONS:
        for source in (*COLUMN_NAMES, *CELL_NAMES):
            column = source in COLUMN_NAMES
            run = position.movable_run_length(COLUMN_NAMES.index(source)) if column else 1
            for target in PLACES:
                for count in range(1, max(run, 1) + 1):
                    try:
                        before: str | None = _as_composed_before(position, source, target, count)
                    except RuleError:
                        before = None
                    try:
                        now: str | None = position.action_between(source, target, count).notation
                    except RuleError:
                        now = None
                    assert now == before, (position.to_text(), source, target, count)
                    compared += 1
    assert compared > 10_000


def test_every_legal_freecell_move_is_the_move_between_its_places() -> None:
    for position in FREECELL_POSITIONS:
        for move in position.legal_moves():
            found = position.action_between(move.source, move.target, move.count)
            assert found == move
            assert found.notation == move.notation


# -- Montana -------------------------------------------------------------------------------


def _montana_positions() -> list[MontanaPosition]:
    positions = []
    for deal in range(1, 6):
        chance = random.Random(deal)
        position = montana_deal(deal, "expert")
        for _ in range(30):
            positions.append(position)
            moves = position.legal_moves()
            if not moves:
                break
            position = position.play(chance.choice(moves))
    return positions


def test_montana_moves_a_card_into_a_gap() -> None:
    position = montana_deal(1, "expert")  # 6S at D10 goes into the gap at A13, after 5S
    move = position.action_between("D10", "A13", 1)
    assert move == MontanaMove(Card.parse("6S"), parse_cell("A13"))
    assert move.notation == "6S A13"
    assert position.action_between("d10", "a13", 7) == move  # any case; the count is ignored


@pytest.mark.parametrize(
    ("source", "target", "error", "code"),
    [
        ("Z1", "A13", InvalidMoveError, "montana.not_a_cell"),
        ("D10", "A14", InvalidMoveError, "montana.not_a_cell"),
        ("", "A13", InvalidMoveError, "montana.not_a_cell"),
        ("A13", "B9", IllegalMoveError, "montana.no_card"),  # A13 is a gap
        ("D10", "A1", IllegalMoveError, "montana.not_a_gap"),
        ("D10", "B9", IllegalMoveError, "montana.wrong_card"),  # B9 wants QS
        ("A1", "C4", IllegalMoveError, "montana.wrong_card"),
    ],
)
def test_montana_refuses_with_a_code(
    source: str, target: str, error: type[RuleError], code: str
) -> None:
    with pytest.raises(error) as caught:
        montana_deal(1, "expert").action_between(source, target, 1)
    assert caught.value.code == code


def test_montana_agrees_with_its_legal_moves() -> None:
    for position in _montana_positions():
        legal = {move.notation for move in position.legal_moves()}
        for gap in position.gaps:
            for cell, card in enumerate(position.cells):
                if card is None:
                    continue
                name = f"{card.text} {cell_name(gap)}"
                if name in legal:
                    move = position.action_between(cell_name(cell), cell_name(gap), 1)
                    assert move.notation == name
                else:
                    with pytest.raises(IllegalMoveError):
                        position.action_between(cell_name(cell), cell_name(gap), 1)
