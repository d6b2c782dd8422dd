"""Every rule of shared/rules/montana.md, with literal before/after positions."""

from __future__ import annotations

import pytest

from app.games.montana import rules as montana
from app.games.montana.rules import REDEAL, MontanaMove, parse, parse_cell
from app.rules.cards import Card
from app.rules.protocol import IllegalMoveError, InvalidMoveError, InvalidPositionError

DEAL_1 = """\
JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S --
QC KH 3H 2S KS 9D QD JS -- -- 3C 4C 5C
TS QH 4H -- 4D 7S 3S TD 4S TH 8H 2C JH
7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H
"""

# Three rows almost done; row D holds the rest. Gaps at A13? No: each row has one gap.
NEARLY_WON = """\
2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC --
2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD --
2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH --
2S 3S 4S 5S 6S 7S 8S 9S TS JS QS -- KS
"""

WON = """\
2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC --
2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD --
2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH --
2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS --
"""

# Every gap sits after a king: no move at all.
BLOCKED = """\
KC -- 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC
KD -- 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD
KH -- 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH
KS -- 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS
"""


def grid(position: montana.MontanaPosition) -> str:
    return position.grid_text() + "\n"


def moves(position: montana.MontanaPosition) -> list[str]:
    return [move.notation for move in position.legal_moves()]


def play(position: montana.MontanaPosition, *notations: str) -> montana.MontanaPosition:
    for notation in notations:
        position = position.play(position.parse_action(notation))
    return position


# -- the deal ------------------------------------------------------------------------------


def test_deal_1_is_the_rules_page_layout() -> None:
    assert grid(montana.new_game(1)) == DEAL_1


def test_deal_has_48_cards_four_gaps_and_no_aces() -> None:
    for number in (1, 2, 617, 11982, 1_000_000):
        position = montana.new_game(number)
        cards = [card for card in position.cells if card is not None]
        assert len(position.cells) == 52
        assert len(cards) == 48 == len(set(cards))
        assert all(card.rank != 1 for card in cards)


def test_deal_follows_microsofts_shuffle_cell_by_cell() -> None:
    from app.rules.deals import microsoft_deal

    dealt = microsoft_deal(11982)
    position = montana.new_game(11982)
    for cell, card in enumerate(dealt):
        assert position.cells[cell] == (None if card.rank == 1 else card)


def test_variants_set_the_redeals() -> None:
    assert montana.new_game(5, "easy").redeals_left == 4
    assert montana.new_game(5, "expert").redeals_left == 2
    assert montana.new_game(5).redeals_left == 2
    with pytest.raises(ValueError, match="variant"):
        montana.new_game(5, "medium")
    with pytest.raises(ValueError, match="deal number"):
        montana.new_game(0)


# -- moves ---------------------------------------------------------------------------------


def test_deal_1_legal_moves() -> None:
    # A13 after 5S wants 6S; B9 after JS wants QS; B10 after a gap is dead; C4 after 4H
    # wants 5H.
    assert moves(montana.new_game(1)) == ["6S A13", "QS B9", "5H C4"]


def test_a_move_fills_the_gap_and_opens_the_cell_it_left() -> None:
    after = play(montana.new_game(1), "5H C4")
    assert grid(after) == (
        "JD 2D 9H JC 5D 7H 7C -- KD KC 9S 5S --\n"
        "QC KH 3H 2S KS 9D QD JS -- -- 3C 4C 5C\n"
        "TS QH 4H 5H 4D 7S 3S TD 4S TH 8H 2C JH\n"
        "7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H\n"
    )
    assert after.cells[parse_cell("A8")] is None
    assert after.cells[parse_cell("C4")] == Card.parse("5H")


def test_the_card_after_the_left_neighbour_is_the_only_fit() -> None:
    position = montana.new_game(1)
    with pytest.raises(IllegalMoveError, match="only 6S follows 5S"):
        position.play(MontanaMove(Card.parse("7S"), parse_cell("A13")))


def test_gap_after_a_king_is_dead() -> None:
    position = parse(BLOCKED)
    assert position.wanted(parse_cell("A2")) is None
    assert position.is_dead(parse_cell("A2"))
    with pytest.raises(IllegalMoveError, match="nothing goes after a king"):
        position.play(MontanaMove(Card.parse("2C"), parse_cell("A2")))


def test_gap_after_a_gap_is_dead_until_filled() -> None:
    position = montana.new_game(1)
    assert position.is_dead(parse_cell("B10"))
    with pytest.raises(IllegalMoveError, match="dead until the gap to its left is filled"):
        position.play(MontanaMove(Card.parse("KS"), parse_cell("B10")))
    after = play(position, "QS B9")
    assert after.wanted(parse_cell("B10")) == Card.parse("KS")
    assert moves(after)[:2] == ["6S A13", "KS B10"]
    assert after.cells[parse_cell("D5")] is None
    assert after.wanted(parse_cell("D5")) == Card.parse("9D")


def test_any_two_may_go_to_a_column_one_gap() -> None:
    position = montana.new_game(1).redeal()  # every row: gap in column 1
    assert [position.cells[parse_cell(f"{row}1")] for row in "ABCD"] == [None] * 4
    expected = [f"2{suit} {row}1" for row in "ABCD" for suit in "CDHS"]
    assert moves(position) == expected


def test_a_two_in_column_one_stays_put() -> None:
    position = play(montana.new_game(1).redeal(), "2H A1")
    assert "2H B1" not in moves(position)
    with pytest.raises(IllegalMoveError, match="already in column 1"):
        position.play(MontanaMove(Card.parse("2H"), parse_cell("B1")))


def test_only_a_two_goes_to_column_one() -> None:
    position = montana.new_game(1).redeal()
    with pytest.raises(IllegalMoveError, match="only a 2 may go to column 1"):
        position.play(MontanaMove(Card.parse("3H"), parse_cell("A1")))


def test_moving_into_an_occupied_cell_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match="A1 is not a gap: JD is there"):
        montana.new_game(1).play(MontanaMove(Card.parse("2C"), parse_cell("A1")))


def test_first_two_decides_the_row_suit_and_the_next_card_follows() -> None:
    position = play(montana.new_game(1).redeal(), "2H A1")
    assert position.wanted(parse_cell("A2")) == Card.parse("3H")
    assert position.score == 1


@pytest.mark.parametrize(
    "text",
    ["", "8C", "8C B7 C1", "8X B7", "AC A1", "8C Z1", "8C A0", "8C A14", "8C 7B", "redeal now"],
)
def test_malformed_moves_are_invalid(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        montana.new_game(1).parse_action(text)


def test_move_notation_round_trips() -> None:
    move = MontanaMove.from_text("8c b7")
    assert move.notation == "8C B7"
    assert MontanaMove.from_text(move.notation) == move
    assert montana.new_game(1).parse_action(" Redeal ") is REDEAL


def test_ten_is_written_t_and_read_as_10() -> None:
    assert MontanaMove.from_text("10D C1").notation == "TD C1"


# -- score ---------------------------------------------------------------------------------


def test_score_counts_each_rows_sequence_from_column_one() -> None:
    assert montana.new_game(1).score == 0
    assert parse(NEARLY_WON).score == 47
    assert parse(WON).score == 48
    # A sequence stops at the first card out of order.
    broken = NEARLY_WON.replace("2C 3C 4C 5C", "2C 3C 5C 4C")
    assert parse(broken).sequence_length(0) == 2


def test_winning_move_wins() -> None:
    position = parse(NEARLY_WON)
    assert not position.is_won()
    assert moves(position) == ["KS D12"]
    won = play(position, "KS D12")
    assert won.is_won()
    assert won.score == 48
    assert not won.is_lost()
    assert won.is_stuck()
    assert not won.can_redeal()


def test_won_needs_gaps_in_column_13() -> None:
    assert parse(WON).is_won()
    assert all(parse(WON).cells[row * 13 + 12] is None for row in range(4))


# -- redeal --------------------------------------------------------------------------------


SEQUENCES = """\
2H 3H KC -- 4D 9D 7H 6D 3S 8H 4H 3C TH
2C -- TS JH 7C TC 9S 5H 5D QH QC 2S 4C
KH 4S 3D 6H 6S 2D 5C 8S TD JC 9H -- JS
-- 7S 8C KD 5S 7D QS JD 6C 8D QD KS 9C
"""


def test_redeal_keeps_sequences_and_leaves_one_gap_after_each() -> None:
    position = parse("Deal: 1\n" + SEQUENCES)
    assert [position.sequence_length(row) for row in range(4)] == [2, 1, 0, 0]
    after = position.redeal()
    assert [after.sequence_length(row) for row in range(4)] >= [2, 1, 0, 0]
    assert after.cells[0:2] == position.cells[0:2]
    assert after.cells[13] == position.cells[13]
    assert after.gaps == (parse_cell("A3"), parse_cell("B2"), parse_cell("C1"), parse_cell("D1"))
    assert after.redeals_left == position.redeals_left - 1
    assert after.redeals_done == position.redeals_done + 1
    assert sorted(c.index for c in after.cells if c) == sorted(c.index for c in position.cells if c)


def test_full_row_keeps_its_gap_in_column_13() -> None:
    position = parse("Redeals-left: 2\n" + NEARLY_WON)
    after = position.redeal()
    assert after.cells[12] is None and after.cells[25] is None and after.cells[38] is None
    assert after.sequence_length(3) == 11
    assert after.gaps[-1] == parse_cell("D12")


def test_redeal_is_deterministic_and_depends_on_deal_and_index() -> None:
    position = montana.new_game(7)
    assert position.redeal() == position.redeal()
    assert position.redeal().redeal() != position.redeal()
    assert montana.new_game(8).redeal().cells != montana.new_game(7).redeal().cells


def test_no_redeal_when_none_left_or_won() -> None:
    position = montana.new_game(3, "expert").redeal().redeal()
    assert position.redeals_left == 0
    assert not position.can_redeal()
    with pytest.raises(IllegalMoveError, match="no redeals left"):
        position.play(REDEAL)
    with pytest.raises(IllegalMoveError, match="won"):
        parse(WON).redeal()


def test_easy_allows_four_redeals() -> None:
    position = montana.new_game(3, "easy")
    for _ in range(4):
        position = position.redeal()
    assert position.redeals_left == 0
    with pytest.raises(IllegalMoveError):
        position.redeal()


# -- stuck and lost ------------------------------------------------------------------------


def test_blocked_with_redeals_is_stuck_only_when_none_left() -> None:
    with_redeals = parse("Redeals-left: 1\n" + BLOCKED)
    assert not with_redeals.has_moves()
    assert not with_redeals.is_stuck()
    assert not with_redeals.is_lost()
    without = parse("Redeals-left: 0\n" + BLOCKED)
    assert without.is_stuck()
    assert without.is_lost()


def test_a_column_one_gap_always_has_a_two_to_take() -> None:
    # Four rows, four 2s: while column 1 has a gap, some 2 stands elsewhere.
    position = parse(SEQUENCES)
    assert [m.notation for m in position.moves_to(parse_cell("D1"))] == ["2D D1", "2S D1"]


# -- text ----------------------------------------------------------------------------------


def test_text_round_trips_with_headers() -> None:
    position = montana.new_game(42, "easy").redeal()
    text = position.to_text()
    assert text.startswith("Variant: easy\nDeal: 42\nRedeals-left: 3\nRedeals-done: 1\n")
    assert parse(text) == position
    assert eval(repr(position), {"montana": montana}) == position


def test_grid_alone_is_a_position() -> None:
    position = parse(DEAL_1)
    assert position.cells == montana.new_game(1).cells
    assert (position.deal, position.redeals_left, position.redeals_done) == (0, 2, 0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (DEAL_1.replace("JD", "JX"), r"A1: not a card or gap: 'JX'"),
        (DEAL_1.replace("2D", "JD"), r"A2: JD is also at A1"),
        (DEAL_1.replace("6H", "--"), r"missing card\(s\): 6H"),
        (DEAL_1.replace("JD", "AD"), r"A1: aces are not on a Montana board"),
        (DEAL_1.replace(" 5S --", " 5S"), r"row A has 12 cells, expected 13"),
        ("\n".join(DEAL_1.splitlines()[:3]), r"expected 4 rows of cells, got 3"),
        ("Colour: red\n" + DEAL_1, r"line 1: unknown header 'colour'"),
        ("Deal: seven\n" + DEAL_1, r"line 1: deal must be a number"),
    ],
)
def test_malformed_positions_name_the_bad_part(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        parse(text)


def test_cell_names() -> None:
    assert [montana.cell_name(i) for i in (0, 12, 13, 51)] == ["A1", "A13", "B1", "D13"]
    assert parse_cell("d13") == 51
