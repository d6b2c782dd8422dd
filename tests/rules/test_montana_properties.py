"""Property tests: random walks of legal actions keep every invariant of the board."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.montana import rules as montana
from app.games.montana.rules import COLUMNS, DECK, ROWS, MontanaPosition
from app.rules.history import Entry, replay

deals = st.integers(min_value=1, max_value=montana.MAX_DEAL)
choices = st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=120)


def walk(position: MontanaPosition, picks: list[int]) -> tuple[list[MontanaPosition], list[Entry]]:
    """Play a legal move chosen by each pick; redeal when stuck (or on a pick of 0)."""
    positions = [position]
    entries: list[Entry] = []
    for pick in picks:
        legal = position.legal_moves()
        if legal and pick % 23 != 0:
            move = legal[pick % len(legal)]
            entries.append(("move", move.notation))
            position = position.play(move)
        elif position.can_redeal():
            entries.append(("move", "redeal"))
            position = position.redeal()
        else:
            break
        positions.append(position)
    return positions, entries


def check_invariants(position: MontanaPosition) -> None:
    assert len(position.cells) == ROWS * COLUMNS == 52
    cards = [card for card in position.cells if card is not None]
    assert len(cards) == 48
    assert set(cards) == DECK
    assert len(position.gaps) == 4


@settings(max_examples=60, deadline=None)
@given(deals, choices)
def test_random_play_keeps_52_cells_48_cards_4_gaps(deal: int, picks: list[int]) -> None:
    positions, _ = walk(montana.new_game(deal), picks)
    for position in positions:
        check_invariants(position)


@settings(max_examples=60, deadline=None)
@given(deals, choices)
def test_score_never_drops_and_text_round_trips(deal: int, picks: list[int]) -> None:
    positions, _ = walk(montana.new_game(deal), picks)
    for before, after in pairwise(positions):
        assert after.score >= before.score
    for position in positions:
        assert montana.parse(position.to_text()) == position


@settings(max_examples=60, deadline=None)
@given(deals, choices, st.sampled_from(["easy", "expert"]))
def test_redeal_keeps_every_sequence_and_puts_one_gap_after_each(
    deal: int, picks: list[int], variant: str
) -> None:
    positions, _ = walk(montana.new_game(deal, variant), picks)
    for position in positions:
        if not position.can_redeal():
            continue
        after = position.redeal()
        check_invariants(after)
        for row in range(ROWS):
            length = position.sequence_length(row)
            start = row * COLUMNS
            assert after.cells[start : start + length] == position.cells[start : start + length]
            assert after.cells[start + length] is None
            assert after.sequence_length(row) >= length


@settings(max_examples=60, deadline=None)
@given(deals, choices, st.sampled_from(["easy", "expert"]))
def test_replaying_the_history_reproduces_the_position(
    deal: int, picks: list[int], variant: str
) -> None:
    positions, entries = walk(montana.new_game(deal, variant), picks)
    assert replay(montana.RULES, deal, variant, entries) == positions[-1]


@settings(max_examples=40, deadline=None)
@given(deals, choices)
def test_every_move_notation_reads_back_to_the_same_move(deal: int, picks: list[int]) -> None:
    positions, _ = walk(montana.new_game(deal), picks)
    for position in positions:
        for move in position.legal_moves():
            assert position.parse_action(move.notation) == move
