"""Blue Moon and Red Moon (PySolFC's ``montana.py``): Montana with each row headed by its
ace, the deals, the one rule that changes (column 1 takes only the row's 2), the win, the
redeal, the text form and the solver's lines."""

from __future__ import annotations

import pytest

from app.games.montana import rules as montana
from app.games.montana import solver
from app.games.montana.rules import MontanaMove, new_game, parse, parse_cell
from app.rules.cards import Card
from app.rules.protocol import IllegalMoveError, InvalidPositionError

C = Card.parse


def test_blue_moon_deals_montana_s_deal_and_heads_the_rows_with_its_aces_as_dealt() -> None:
    blue, plain = new_game(1, "blue-moon"), new_game(1, "expert")
    assert blue.cells == plain.cells  # the same grid, the aces' cells the four gaps
    assert blue.aces == (C("AD"), C("AS"), C("AH"), C("AC"))  # in the order dealt
    assert blue.redeals_left == 2 and blue.score == 0


def test_red_moon_heads_the_rows_by_suit_and_deals_the_rest_after_a_gap() -> None:
    red, plain = new_game(1, "red-moon"), new_game(1, "expert")
    assert red.aces == (C("AC"), C("AD"), C("AH"), C("AS"))
    assert red.gaps == (0, 13, 26, 39)  # column 1 of every row
    dealt = [card for card in plain.cells if card is not None]
    assert [card for card in red.cells if card is not None] == dealt  # in order
    assert red.redeals_left == 2


def test_a_column_one_gap_takes_only_the_2_of_its_row_s_ace() -> None:
    red = new_game(1, "red-moon")
    assert [move.notation for move in red.legal_moves()] == ["2C A1", "2D B1", "2H C1", "2S D1"]
    assert red.wanted(parse_cell("A1")) == C("2C")
    with pytest.raises(IllegalMoveError) as refused:
        red.play(MontanaMove(C("2D"), parse_cell("A1")))
    assert refused.value.code == "montana.row_two"
    assert refused.value.params["ace"] == C("AC")
    after = red.play(red.parse_action("2C A1"))
    assert after.score == 1 and after.in_place(parse_cell("A1"))


def test_a_2_of_another_suit_in_column_one_is_not_in_place_and_may_leave() -> None:
    blue = new_game(1, "blue-moon")
    # Row A's ace is the diamond's and its column 1 holds JD: no row is in place.
    assert blue.score == 0
    text = blue.to_text().replace("JD 2D 9H", "2S JD 9H").replace("QC KH 3H 2S", "QC KH 3H 2D")
    moved = parse(text)
    assert moved.cells[0] == C("2S") and not moved.in_place(0)
    assert moved.sequence_length(0) == 0


WON = """\
Aces: AC AD AH AS
2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC --
2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD --
2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH --
2S 3S 4S 5S 6S 7S 8S 9S TS JS QS -- KS
"""


def test_every_row_from_its_ace_to_king_wins_and_a_row_of_another_suit_does_not() -> None:
    nearly = parse(WON)
    assert nearly.score == 47 and not nearly.is_won()
    won = nearly.play(nearly.parse_action("KS D12"))
    assert won.is_won() and won.score == montana.IN_PLACE_MAX
    swapped = parse(WON.replace("Aces: AC AD AH AS", "Aces: AD AC AH AS"))
    assert swapped.score == 23  # rows A and B are built on the other ace's suit


def test_the_text_form_keeps_the_aces_and_refuses_a_bad_aces_line() -> None:
    for variant in ("blue-moon", "red-moon"):
        position = new_game(617, variant)
        assert "Aces: " in position.to_text()
        assert parse(position.to_text()) == position
    assert "Aces" not in new_game(617, "expert").to_text()
    for line in ("Aces: AC AD AH", "Aces: AC AD AH AH", "Aces: AC AD AH KS", "Aces: XX"):
        with pytest.raises(InvalidPositionError):
            parse(WON.replace("Aces: AC AD AH AS", line))


def test_a_redeal_keeps_the_aces_and_each_row_s_sequence() -> None:
    red = new_game(1, "red-moon")
    start = red.play(red.parse_action("2C A1"))
    again = start.redeal()
    assert again.aces == red.aces and again.redeals_left == 1
    assert again.cells[0] == C("2C") and again.cells[1] is None  # the gap after A's run
    assert again.gaps == (1, 13, 26, 39)


@pytest.mark.parametrize(("variant", "deal"), [("blue-moon", 2), ("red-moon", 5)])
def test_the_solver_s_winning_line_wins_when_the_engine_plays_it(variant: str, deal: int) -> None:
    position = new_game(deal, variant)
    found = solver.search(position, max_seconds=30)
    assert found.verdict == "solved"
    for notation in found.moves:
        position = position.play(position.parse_action(notation))
    assert position.is_won()


def test_the_solver_never_moves_a_2_into_another_row_s_column_one() -> None:
    position = new_game(3, "red-moon")
    found = solver.search(position, max_seconds=2)
    for notation in found.moves:
        position = position.play(position.parse_action(notation))  # each one legal


@pytest.mark.parametrize("variant", montana.VARIANTS)
def test_a_position_carries_its_variant_through_moves_redeals_and_its_text(variant: str) -> None:
    position = new_game(5, variant)
    assert position.variant is montana.BY_NAME[variant]
    assert position.redeals_left == position.variant.redeals
    moved = position.play(position.legal_moves()[0]) if position.legal_moves() else position
    redealt = moved.redeal()
    for later in (moved, redealt):
        assert later.variant is position.variant
        assert parse(later.to_text()) == later
    named = position.to_text().startswith(f"Variant: {variant}\n")
    assert named is (variant != montana.DEFAULT_VARIANT)  # Montana's own texts as before


@pytest.mark.parametrize("variant", montana.VARIANTS)
def test_a_text_that_does_not_name_its_variant_reads_as_the_variant_it_fits(
    variant: str,
) -> None:
    """Texts written before positions named their variant: Easy by its four redeals,
    the moons by their aces (Red Moon's in suit order), else Montana."""
    deal = next(
        d for d in range(1, 50) if "".join(a.suit for a in new_game(d, "blue-moon").aces) != "CDHS"
    )
    position = new_game(deal, variant)
    unnamed = position.to_text().removeprefix(f"Variant: {variant}\n")
    assert not unnamed.startswith("Variant")
    assert parse(unnamed) == position


def test_a_variant_line_that_names_no_variant_or_misfits_the_aces_is_refused() -> None:
    easy = new_game(2, "easy").to_text()
    with pytest.raises(InvalidPositionError, match="no Montana variant"):
        parse(easy.replace("Variant: easy", "Variant: hard"))
    with pytest.raises(InvalidPositionError, match="do not fit"):
        parse(easy.replace("Variant: easy", "Variant: red-moon"))
    blue = new_game(2, "blue-moon").to_text()
    with pytest.raises(InvalidPositionError, match="do not fit"):
        parse(blue.replace("Variant: blue-moon", "Variant: easy"))
