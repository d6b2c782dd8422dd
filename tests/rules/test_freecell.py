"""FreeCell rules: literal positions before and after each rule, errors, golden deals."""

from __future__ import annotations

import pytest

from app.games.freecell import rules as freecell
from app.games.freecell.rules import (
    MAX_DEAL,
    RULES,
    FreeCellMove,
    FreeCellPosition,
    new_game,
    parse,
    supermove_limit,
)
from app.games.montana import rules as montana
from app.rules.cards import FULL_DECK, SUITS, Card
from app.rules.protocol import IllegalMoveError, InvalidMoveError, InvalidPositionError

# Deal #1 exactly as the rules page lists it, column by column.
DEAL_1 = """\
: JD KD 2S 4C 3S 6D 6S
: 2D KC KS 5C TD 8S 9C
: 9H 9S 9D TS 4S 8D 2H
: JC 5S QD QH TH QS 6H
: 5D AD JS 4H 8H 6C
: 7H QC AS AC 2C 3D
: 7C KH AH 4D JH 8C
: 5H 3H 3C 7S 7D TC
"""

# Deal #11982, the one deal of 1 … 32,000 that cannot be won, as FreeCell sites show it.
DEAL_11982 = """\
: AH 3D KD JC 6C JD KC
: AS 3H 6H 5D 2C 7D 8D
: 4H QS 5S 5C TH 8H 2S
: AC QC 4D 8C QH 9C 3S
: 2D 8S 9H 9D 6D 2H
: 6S 7H JH TD TC QD
: TS AD 9S KH 4S 4C
: JS KS 3C 7C 7S 5H
"""

# Deal #617 as Rosetta Code's "Deal cards for FreeCell" prints it: rows, not columns.
DEAL_617_ROWS = [
    "7D AD 5C 3S 5S 8C 2D AH",
    "TD 7S QD AC 6D 8H AS KH",
    "TH QC 3H 9D 6S 8D 3D TC",
    "KD 5H 9S 3C 8S 7H 4D JS",
    "4C QS 9C 9H 7C 6H 2C 2S",
    "4S TS 2H 5D JC 6C JH QH",
    "JD KS KC 4H",
]

# Single cards: one empty free cell short of three, two empty columns.
SINGLES = """\
Foundations: H-7 C-7 D-8 S-8
Freecells: 8H - - -
: KC 9H
: QS JH TS
: KH QC 8C
: KD QH JC TD 9S
: KS QD JS TH 9C
: JD TC 9D
:
:
"""

# Supermoves with 1 empty free cell and 1 empty column: 4 cards onto a card, 2 into column 8.
# Column 1's run QH JC TH 9C 8H: from JC it fits on QD (4 cards), from QH on KS (5 cards).
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

# The same run with 1 empty free cell and 2 empty columns: 4 cards into an empty column.
TWO_EMPTY_COLUMNS = """\
Foundations: H-5 C-5 D-5 S-5
Freecells: 6C 6D 6H -
: 7S QH JC TH 9C 8H
: KD 8C KS 6S
: 7C TC QD 8S 9S
: KC 7D 8D TS
: 9D TD JD QC JS
: 7H 9H JH KH QS
:
:
"""

# 3H, 3C and 3D can go home; only 3C is safe (the spades foundation is still at the ace).
THREES = """\
Foundations: H-2 C-2 D-2 S-A
: 3H
: 3C
: 2S KS QS JS TS 9S 8S 7S 6S 5S 4S 3S
: KH QH JH TH 9H 8H 7H 6H 5H 4H
: KC QC JC TC 9C 8C 7C 6C 5C 4C
: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D
:
:
"""

# An ace and a 2 go home even though the red foundations are empty.
ACE_AND_TWO = """\
Foundations: H-0 C-A D-0 S-0
: AH
: 2C
: AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H
: AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D
: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C
:
:
"""

# Reached by random play from deal 4: every free cell full, no card can move.
STUCK = """\
Foundations: H-0 C-0 D-2 S-0
Freecells: 7H 9H 8S JD
: KS 2C 6D 9S TC JC 9C 8H
: QC AC TS 5S TH QD 7D
: 3D KH QS AS 7C KC 4S 3H
: JS 8C 4D
: 5D AH 4H 8D
: KD 9D 2S 4C 2H 6H
: 6S 6C QH 5H JH
: 3S 5C 7S 3C TD
"""

WON = "Foundations: H-K C-K D-K S-K\n" + ":\n" * 8


def notations(moves: tuple[FreeCellMove, ...]) -> list[str]:
    return [move.notation for move in moves]


def after(before: str, *moves: str) -> str:
    """The text of ``before`` after playing ``moves`` in notation."""
    position = parse(before)
    for text in moves:
        position = position.play(position.parse_action(text))
    return position.to_text()


# -- deals -------------------------------------------------------------------------------


def test_deal_1_is_the_rules_page_layout() -> None:
    assert new_game(1).to_text() == DEAL_1
    assert new_game(1) == parse(DEAL_1)


def test_deal_11982() -> None:
    assert new_game(11982).to_text() == DEAL_11982


def test_deal_617_row_by_row() -> None:
    columns = new_game(617).columns
    rows = [
        " ".join(column[row].text for column in columns if len(column) > row) for row in range(7)
    ]
    assert rows == DEAL_617_ROWS


@pytest.mark.parametrize("deal", [2, 164, 1_000_000, 2**31 - 1])
def test_deals_fill_columns_of_seven_then_six(deal: int) -> None:
    position = new_game(deal)
    assert [len(column) for column in position.columns] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert sorted(card for column in position.columns for card in column) == sorted(FULL_DECK)
    assert position.cells == (None,) * 4
    assert position.foundations == (0, 0, 0, 0)


@pytest.mark.parametrize("deal", [0, -1, 2**31])
def test_deal_numbers_out_of_range(deal: int) -> None:
    with pytest.raises(ValueError, match="deal number"):
        new_game(deal)


def test_unknown_variant() -> None:
    with pytest.raises(ValueError, match="unknown FreeCell variant 'baker'"):
        new_game(1, "baker")


def test_rules_value() -> None:
    assert (RULES.kind, RULES.name, RULES.variants) == (
        "freecell",
        "FreeCell",
        (
            *("standard", "bakers", "cells-3", "cells-2", "cells-1"),
            *("eight-off", "seahaven", "forecell"),
        ),
    )
    assert RULES.default_variant == "standard"
    assert RULES.max_deal == MAX_DEAL == 1_000_000
    assert RULES.new_game(1, "standard") == new_game(1)
    assert RULES.parse(DEAL_1) == new_game(1)


# -- notation ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (FreeCellMove("3", "a"), "3a"),
        (FreeCellMove("a", "5"), "a5"),
        (FreeCellMove("3", "h"), "3h"),
        (FreeCellMove("d", "h"), "dh"),
        (FreeCellMove("3", "6", 4), "36"),
        (FreeCellMove("3", "6", 1, to_empty=True), "36"),
        (FreeCellMove("3", "6", 4, to_empty=True), "36v4"),
        (FreeCellMove("3", "6", 12, to_empty=True), "36vc"),
    ],
)
def test_notation(move: FreeCellMove, text: str) -> None:
    assert move.notation == str(move) == text


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("3a", FreeCellMove("3", "a")),
        (" 8D ", FreeCellMove("8", "d")),
        ("A5", FreeCellMove("a", "5")),
        ("3H", FreeCellMove("3", "h")),
        ("36", FreeCellMove("3", "6")),
        ("36v1", FreeCellMove("3", "6")),
        ("36V4", FreeCellMove("3", "6", 4)),
        ("81va", FreeCellMove("8", "1", 10)),
    ],
)
def test_from_text(text: str, move: FreeCellMove) -> None:
    assert FreeCellMove.from_text(text) == move


def test_to_empty_is_not_part_of_a_moves_identity() -> None:
    assert FreeCellMove("a", "5", to_empty=True) == FreeCellMove("a", "5")
    assert FreeCellMove.from_text("36v4").to_empty
    assert FreeCellMove("3", "6").kind == "move"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not a FreeCell move: ''"),
        ("3", "not a FreeCell move: '3'"),
        ("3j", "not a FreeCell move: '3j'"),
        ("x3", "not a FreeCell move: 'x3'"),
        ("h3", "not a FreeCell move: 'h3'"),
        ("3k", "not a FreeCell move: '3k'"),
        ("3 a", "not a FreeCell move: '3 a'"),
        ("3ax", "not a FreeCell move: '3ax'"),
        ("36v", "not a FreeCell move: '36v'"),
        ("36vg", "not a FreeCell move: '36vg'"),
        ("36v-1", "not a FreeCell move: '36v-1'"),
        ("33", "cannot move to where it is: '33'"),
        ("aa", "cannot move to where it is: 'aa'"),
        ("ab", "free cell to free cell is not a move: 'ab'"),
        ("36v0", "at least one card: '36v0'"),
        ("3av2", "only a column-to-column move has a card count: '3av2'"),
        ("3hv1", "only a column-to-column move has a card count: '3hv1'"),
        ("a5v2", "only a column-to-column move has a card count: 'a5v2'"),
    ],
)
def test_malformed_moves(text: str, message: str) -> None:
    with pytest.raises(InvalidMoveError, match=message):
        FreeCellMove.from_text(text)
    with pytest.raises(InvalidMoveError, match=message):
        new_game(1).parse_action(text)


@pytest.mark.parametrize(("text", "place"), [("39", "'9'"), ("03", "'0'"), ("3e", "'e'")])
def test_places_another_variant_has_are_no_place_here(text: str, place: str) -> None:
    """Column 9 and free cell e are notation (Seahaven, Eight Off), not standard places."""
    assert FreeCellMove.from_text(text).notation == text
    with pytest.raises(InvalidMoveError, match=f"not a column or free cell: {place}"):
        new_game(1).parse_action(text)


@pytest.mark.parametrize(
    ("move", "message"),
    [
        (FreeCellMove("a", "b"), "free cell to free cell"),
        (FreeCellMove("3", "3"), "where it is"),
        (FreeCellMove("a", "5", 2), "only a column-to-column move carries several cards"),
        (FreeCellMove("3", "6", 0), "at least one card"),
        (FreeCellMove("x", "a"), "not a FreeCell move"),  # type: ignore[arg-type]
        (FreeCellMove("9", "a"), "not a column or free cell"),
    ],
)
def test_playing_malformed_moves(move: FreeCellMove, message: str) -> None:
    with pytest.raises(InvalidMoveError, match=message):
        new_game(1).play(move)


def test_playing_another_games_action() -> None:
    with pytest.raises(InvalidMoveError, match="not a FreeCell move: 'redeal'"):
        new_game(1).play(montana.REDEAL)


# -- the rules, one by one ------------------------------------------------------------------


def test_column_to_free_cell() -> None:
    assert after(SINGLES, "1b") == SINGLES.replace("8H - - -", "8H 9H - -").replace(
        ": KC 9H", ": KC"
    )


def test_free_cell_onto_column() -> None:
    assert after(SINGLES, "a4") == (
        "Foundations: H-7 C-7 D-8 S-8\n"
        ": KC 9H\n: QS JH TS\n: KH QC 8C\n: KD QH JC TD 9S 8H\n"
        ": KS QD JS TH 9C\n: JD TC 9D\n:\n:\n"
    )


def test_column_and_free_cell_to_foundation() -> None:
    assert after(SINGLES, "3h", "ah") == (
        "Foundations: H-8 C-8 D-8 S-8\n"
        ": KC 9H\n: QS JH TS\n: KH QC\n: KD QH JC TD 9S\n"
        ": KS QD JS TH 9C\n: JD TC 9D\n:\n:\n"
    )


def test_column_onto_column_one_rank_lower_other_colour() -> None:
    assert after(SINGLES, "12") == SINGLES.replace(": KC 9H", ": KC").replace(
        ": QS JH TS", ": QS JH TS 9H"
    )
    assert after(SINGLES, "31") == SINGLES.replace(": KC 9H", ": KC 9H 8C").replace(
        ": KH QC 8C", ": KH QC"
    )


def test_empty_column_takes_any_card() -> None:
    assert after(SINGLES, "27") == SINGLES.replace(": QS JH TS", ": QS JH").replace(
        ":\n:\n", ": TS\n:\n"
    )
    move = parse(SINGLES).parse_action("a8")
    assert move == FreeCellMove("a", "8") and move.to_empty


def test_king_into_an_empty_column_only() -> None:
    position = parse(after(SINGLES, "12"))
    with pytest.raises(IllegalMoveError, match="KC cannot go on 8C: a king moves only into an"):
        position.parse_action("13")
    assert position.play(position.parse_action("17")).columns[6] == (Card.parse("KC"),)


@pytest.mark.parametrize(
    ("position", "text", "message"),
    [
        (SINGLES, "1h", "9H cannot go home yet: the hearts foundation takes 8H next"),
        (SINGLES, "1a", "free cell a is full: 8H is there"),
        (SINGLES, "b1", "free cell b is empty"),
        (SINGLES, "7a", "column 7 is empty"),
        (SINGLES, "78", "column 7 is empty"),
        (SINGLES, "15", "9H cannot go on 9C: only a red 8 goes on 9C"),
        (SINGLES, "34", "8C cannot go on 9S: only a red 8 goes on 9S"),
        (SINGLES, "a2", "8H cannot go on TS: only a red 9 goes on TS"),
        (SINGLES, "62v2", "2 cards from column 6 do not fit on TS: only the run of 1 from 9D"),
        (SINGLES, "31v2", r"2 cards from column 3 do not fit on 9H: only the run of 1 from 8C"),
        (SINGLES, "17v2", "column 1's run is 1 card long: 2 cards cannot move together"),
        (THREES, "23", "3C cannot go on 3S: only a red 2 goes on 3S"),
        (ONE_EMPTY_COLUMN, "14", "no card of column 1's run QH JC TH 9C 8H goes on 8D: only"),
        (ACE_AND_TWO, "21", "2C cannot go on AH: nothing goes on an ace"),
        (ONE_EMPTY_COLUMN, "16", "no card of column 1's run QH JC TH 9C 8H goes on KH"),
    ],
)
def test_illegal_moves_say_why(position: str, text: str, message: str) -> None:
    with pytest.raises(IllegalMoveError, match=f"illegal move '{text}': {message}"):
        parse(position).parse_action(text)


def test_play_refuses_a_move_with_the_wrong_count() -> None:
    position = parse(ONE_EMPTY_COLUMN)
    with pytest.raises(IllegalMoveError, match="illegal move '13': 1 card from column 1 does"):
        position.play(FreeCellMove("1", "3"))
    with pytest.raises(IllegalMoveError, match="illegal move '18v3': a run of 3 cards"):
        position.play(FreeCellMove("1", "8", 3, to_empty=True))


# -- supermoves --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("empty_cells", "empty_columns", "onto_a_card", "into_an_empty_column"),
    [(0, 0, 1, 1), (1, 0, 2, 2), (4, 0, 5, 5), (0, 1, 2, 1), (1, 1, 4, 2), (3, 2, 16, 8)],
)
def test_supermove_limits(
    empty_cells: int, empty_columns: int, onto_a_card: int, into_an_empty_column: int
) -> None:
    assert supermove_limit(empty_cells, empty_columns, to_empty=False) == onto_a_card
    if empty_columns:
        assert supermove_limit(empty_cells, empty_columns, to_empty=True) == into_an_empty_column


def test_supermove_onto_a_card_up_to_the_limit() -> None:
    position = parse(ONE_EMPTY_COLUMN)
    assert position.max_run() == 4
    move = position.parse_action("13")
    assert move == FreeCellMove("1", "3", 4) and move.notation == "13"
    assert position.play(move).to_text() == ONE_EMPTY_COLUMN.replace(
        ": 7S QH JC TH 9C 8H", ": 7S QH"
    ).replace(": 7C TC QD", ": 7C TC QD JC TH 9C 8H")


def test_supermove_onto_a_card_beyond_the_limit() -> None:
    with pytest.raises(
        IllegalMoveError,
        match="illegal move '12': a run of 5 cards cannot move onto column 2: "
        "with 1 empty free cell and 1 empty column at most 4 cards move at once",
    ):
        parse(ONE_EMPTY_COLUMN).parse_action("12")


def test_supermove_into_an_empty_column_does_not_count_the_target() -> None:
    position = parse(ONE_EMPTY_COLUMN)
    assert position.max_run(to_empty=True) == 2
    assert position.parse_action("18v2") == FreeCellMove("1", "8", 2)
    with pytest.raises(
        IllegalMoveError,
        match="illegal move '18v3': a run of 3 cards cannot move into empty column 8: "
        "with 1 empty free cell and no other empty columns at most 2 cards move at once",
    ):
        position.parse_action("18v3")


def test_supermove_into_an_empty_column_up_to_the_limit() -> None:
    position = parse(TWO_EMPTY_COLUMNS)
    assert (position.max_run(), position.max_run(to_empty=True)) == (8, 4)
    move = position.parse_action("17v4")
    assert move == FreeCellMove("1", "7", 4) and move.notation == "17v4"
    assert position.play(move).to_text() == TWO_EMPTY_COLUMNS.replace(
        ": 7S QH JC TH 9C 8H", ": 7S QH"
    ).replace(":\n:\n", ": JC TH 9C 8H\n:\n")
    with pytest.raises(
        IllegalMoveError,
        match="a run of 5 cards cannot move into empty column 7: "
        "with 1 empty free cell and 1 other empty column at most 4 cards move at once",
    ):
        position.parse_action("17v5")


def test_one_card_when_nothing_is_free() -> None:
    position = parse(after(ONE_EMPTY_COLUMN, "1d", "28"))
    assert (position.empty_cells, position.empty_columns, position.max_run()) == (0, 0, 1)
    with pytest.raises(
        IllegalMoveError,
        match="a run of 3 cards cannot move onto column 3: with no empty free cells and "
        "no empty columns at most 1 card moves at once",
    ):
        position.parse_action("13")


def test_empty_column_notation() -> None:
    position = parse(TWO_EMPTY_COLUMNS)
    one, four = position.parse_action("17"), position.parse_action("17v4")
    assert (one.count, one.notation, four.count, four.notation) == (1, "17", 4, "17v4")
    assert position.parse_action("17v1") == one
    onto_a_card = parse(ONE_EMPTY_COLUMN)
    assert onto_a_card.parse_action("13v4") == onto_a_card.parse_action("13")
    assert onto_a_card.parse_action("13v4").notation == "13"


# -- listing moves -------------------------------------------------------------------------


def test_legal_moves_of_deal_1() -> None:
    moves = new_game(1).legal_moves()
    assert notations(moves)[:6] == ["1a", "1b", "1c", "1d", "2a", "2b"]
    assert len(moves) == 32


def test_legal_moves_order_source_by_source() -> None:
    assert notations(parse(ONE_EMPTY_COLUMN).legal_moves()) == [
        "1d", "13", "18", "18v2",
        "2d", "28",
        "3d", "32", "38",
        "4d", "48",
        "5d", "56", "58",
        "6d", "68",
        "7d", "76", "78",
        "ah", "a8", "bh", "b8", "ch", "c8",
    ]  # fmt: skip


def test_legal_moves_into_empty_columns_list_every_count() -> None:
    moves = notations(parse(SINGLES).moves_from("4"))
    assert moves == [
        "4h", "4b", "4c", "4d", "47", "47v2", "47v3", "47v4", "48", "48v2", "48v3", "48v4"
    ]  # fmt: skip


def test_moving_a_whole_column_into_an_empty_one_is_legal_but_not_listed() -> None:
    position = parse(SINGLES)
    assert "67v3" not in notations(position.legal_moves())
    assert notations(position.moves_from("6"))[-4:] == ["67", "67v2", "68", "68v2"]
    moved = position.play(position.parse_action("67v3"))
    assert moved.columns[5] == () and moved.columns[6] == position.columns[5]


def test_every_legal_move_plays() -> None:
    for text in (SINGLES, ONE_EMPTY_COLUMN, TWO_EMPTY_COLUMNS, THREES, DEAL_11982):
        position = parse(text)
        for move in position.legal_moves():
            assert position.parse_action(move.notation) == move
            position.play(move)


@pytest.mark.parametrize(("deal", "counts"), [(1, [32, 792, 14004]), (11982, [35, 966, 19974])])
def test_move_counts_from_golden_deals(deal: int, counts: list[int]) -> None:
    """Perft: positions reached after 1, 2, 3 moves (pinned from this engine)."""

    def perft(position: FreeCellPosition, depth: int) -> int:
        if depth == 0:
            return 1
        return sum(perft(position.play(move), depth - 1) for move in position.legal_moves())

    assert [perft(new_game(deal), depth) for depth in (1, 2, 3)] == counts


def test_deal_11982_moves_between_columns() -> None:
    moves = new_game(11982).legal_moves()
    assert [move.notation for move in moves if move.target not in "abcd"] == ["54", "61", "78"]


def test_moves_from_a_bad_place() -> None:
    with pytest.raises(InvalidMoveError, match="not a column or free cell: 'h'"):
        new_game(1).moves_from("h")


# -- sending cards home ------------------------------------------------------------------


def test_a_three_waits_for_the_other_colours_twos() -> None:
    position = parse(THREES)
    three_hearts, three_clubs = Card.parse("3H"), Card.parse("3C")
    assert position.can_go_home(three_hearts) and not position.is_safe(three_hearts)
    assert position.is_safe(three_clubs)
    assert position.automatic_move() == FreeCellMove("2", "h")
    assert position.play(FreeCellMove("2", "h")).automatic_move() is None


def test_auto_home_modes() -> None:
    """``safe`` waits for the other colour, ``all`` sends every card that can go, ``off`` none."""
    position = parse(THREES)
    assert position.automatic_move("off") is None
    assert position.automatic_move("safe") == position.automatic_move() == FreeCellMove("2", "h")
    assert position.automatic_move("all") == FreeCellMove("1", "h")  # 3H: lowest, column 1 first
    played = []
    while (move := position.automatic_move("all")) is not None:
        played.append(move.notation)
        position = position.play(move)
    assert played[:3] == ["1h", "2h", "6h"]  # the threes, then up and up
    # Spades wait for 2S, covered in column 3: nothing else stops the sweep.
    assert position.foundations == (13, 13, 13, 1)
    assert position.automatic_move("all") is None


def test_all_mode_is_any_home_move_and_never_less_than_safe() -> None:
    for text in (THREES, ACE_AND_TWO, after(DEAL_1, "6a", "6b")):
        position = parse(text)
        assert position.automatic_move("all") == position.any_home_move()
        if position.automatic_move("safe") is not None:
            assert position.automatic_move("all") is not None


def test_aces_and_twos_are_always_safe() -> None:
    position = parse(ACE_AND_TWO)
    played = []
    while (move := position.automatic_move()) is not None:
        played.append(move.notation)
        position = position.play(move)
    assert played == ["1h", "2h", "4h"]
    assert position.foundations == (2, 0, 2, 0)


def test_automatic_moves_in_a_deal() -> None:
    assert new_game(1).automatic_move() is None
    position = parse(after(DEAL_1, "6a", "6b"))  # 3D and 2C to free cells: AC is exposed
    played = []
    while (move := position.automatic_move()) is not None:
        played.append(move.notation)
        position = position.play(move)
    assert played == ["6h", "6h", "bh"]  # AC, AS, then 2C from its free cell
    assert position.to_text().startswith("Foundations: H-0 C-2 D-0 S-A\nFreecells: 3D - - -\n")


def test_any_home_move_ignores_safety() -> None:
    position = parse(THREES)
    assert position.any_home_move() == FreeCellMove("1", "h")
    assert parse(WON).any_home_move() is None


def test_home_move_of_one_card() -> None:
    position = parse(THREES)
    assert position.home_move("6") == FreeCellMove("6", "h")
    assert position.home_move("3") is None  # 3S: the spades foundation is at the ace
    assert position.home_move("7") is None  # empty column
    assert parse(SINGLES).home_move("a") == FreeCellMove("a", "h")
    assert parse(SINGLES).home_move("b") is None
    with pytest.raises(InvalidMoveError, match="not a column or free cell: '9'"):
        position.home_move("9")


def test_quick_move_goes_home_else_to_the_leftmost_free_cell() -> None:
    assert parse(THREES).quick_move("1") == FreeCellMove("1", "h")
    assert parse(THREES).quick_move("4") == FreeCellMove("4", "a")
    assert parse(SINGLES).quick_move("2") == FreeCellMove("2", "b")
    assert parse(SINGLES).quick_move("a") == FreeCellMove("a", "h")
    full = parse(after(ONE_EMPTY_COLUMN, "1d"))
    assert full.quick_move("1") is None
    assert full.quick_move("d") is None
    assert full.quick_move("8") is None


# -- reading the board -------------------------------------------------------------------


def test_runs() -> None:
    position = parse(ONE_EMPTY_COLUMN)
    assert [position.movable_run_length(column) for column in range(8)] == [5, 1, 1, 1, 1, 1, 1, 0]
    assert [card.text for card in position.run(0)] == ["QH", "JC", "TH", "9C", "8H"]
    assert position.run(7) == ()
    assert freecell.run_length(new_game(1).columns[0]) == 1


def test_board_queries() -> None:
    position = parse(ONE_EMPTY_COLUMN)
    assert position.card_at("1") == Card.parse("8H")
    assert position.card_at("c") == Card.parse("6H")
    assert position.card_at("d") is None and position.card_at("8") is None
    assert position.foundation_card("S") == Card.parse("5S")
    assert new_game(1).foundation_card("S") is None
    assert (position.empty_cells, position.empty_columns) == (1, 1)
    assert freecell.fits(Card.parse("JC"), Card.parse("QD"))
    assert not freecell.fits(Card.parse("JD"), Card.parse("QD"))


def test_game_end() -> None:
    won, stuck, playing = parse(WON), parse(STUCK), new_game(1)
    assert (won.is_won(), won.is_stuck(), won.is_lost(), won.cards_left) == (True, True, False, 0)
    # No legal move left: the game is lost (an undo takes it back into play).
    assert (stuck.is_won(), stuck.is_stuck(), stuck.is_lost()) == (False, True, True)
    assert stuck.cards_left == 50 and stuck.legal_moves() == ()
    assert (playing.is_won(), playing.is_stuck(), playing.cards_left) == (False, False, 52)
    assert playing.score is None and won.score is None


# -- position text -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", [DEAL_1, DEAL_11982, SINGLES, ONE_EMPTY_COLUMN, THREES, ACE_AND_TWO, STUCK, WON]
)
def test_text_round_trip(text: str) -> None:
    position = parse(text)
    assert position.to_text() == text
    assert parse(position.to_text()) == position
    assert eval(repr(position), {"freecell": freecell}) == position
    assert str(position) == text


def test_headers_only_when_needed() -> None:
    assert "Foundations" not in new_game(1).to_text()
    assert after(DEAL_1, "1a").startswith("Freecells: 6S - - -\n: JD KD 2S 4C 3S 6D\n")


def test_parse_is_lenient_about_layout() -> None:
    canonical = after(DEAL_1, "6a", "6b", "6h", "6h")
    assert canonical.startswith("Foundations: H-0 C-A D-0 S-A\nFreecells: 3D 2C - -\n")
    lenient = """
        # deal 1 after a few moves
        freecells: 3d 2c
        : JD KD 2S 4C 3S 6D 6S
        2d kc ks 5c 10d 8s 9c
        : 9H 9S 9D TS 4S 8D 2H

        :JC 5S QD QH TH QS 6H
        : 5D AD JS 4H 8H 6C
        : 7H QC
        : 7C KH AH 4D JH 8C
        : 5H 3H 3C 7S 7D TC
        FOUNDATIONS: S-1 C-1
    """
    assert parse(lenient) == parse(canonical)


@pytest.mark.parametrize(
    ("foundations", "ranks"),
    [
        ("H-0 C-0 D-0 S-0", (0, 0, 0, 0)),
        ("S-A", (0, 0, 0, 1)),
        ("D-10 C-K", (13, 10, 0, 0)),
        ("D-T h-j", (0, 10, 11, 0)),
    ],
)
def test_foundation_tokens(foundations: str, ranks: tuple[int, ...]) -> None:
    table = [card.text for card in FULL_DECK if card.rank > ranks[SUITS.index(card.suit)]]
    position = parse(f"Foundations: {foundations}\n: {' '.join(table)}")
    assert position.foundations == ranks


def _deal_1_with(old: str, new: str) -> str:
    assert old in DEAL_1
    return DEAL_1.replace(old, new, 1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_deal_1_with("JD KD", "XX KD"), "line 1: column 1: not a card: 'XX'"),
        (_deal_1_with("7D TC", "7D JD"), "duplicate card JD: in column 1 and in column 8"),
        (_deal_1_with(" TC", ""), "missing card\\(s\\): TC"),
        (_deal_1_with(" 3D\n", "\n").replace(" 8C", ""), "missing card\\(s\\): 3D 8C"),
        (DEAL_1 + ": \n", "line 9: a column too many, this game has 8"),
        ("Freecells: - - - - -\n" + DEAL_1, "line 1: 5 free cells, this game has 4"),
        ("Freecells: 5X\n" + DEAL_1, "line 1: free cell a: not a card: '5X'"),
        ("Freecells: - 6S\n" + DEAL_1, "duplicate card 6S: in free cell b and in column 1"),
        ("Foundations: H-A\n" + DEAL_1, "duplicate card AH: on the hearts foundation and in col"),
        ("Foundations: H-14\n" + DEAL_1, "line 1: not a foundation: 'H-14'"),
        ("Foundations: X-2\n" + DEAL_1, "line 1: not a foundation: 'X-2'"),
        ("Foundations: H2\n" + DEAL_1, "line 1: not a foundation: 'H2'"),
        ("Foundations: H-\n" + DEAL_1, "line 1: not a foundation: 'H-'"),
        ("Foundations: H-1 H-2\n" + DEAL_1, "line 1: the hearts foundation twice"),
        ("Foundations: H-0\nFoundations: H-0\n" + DEAL_1, "line 2: a second Foundations line"),
        ("Freecells: -\nFreecells: -\n" + DEAL_1, "line 2: a second Freecells line"),
        ("Cells: 5C\n" + DEAL_1, "line 1: unknown header 'cells'"),
        ("", "missing card\\(s\\): AC AD AH AS 2C"),
    ],
)
def test_parse_errors_name_the_bad_part(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        parse(text)
