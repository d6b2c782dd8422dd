"""FreeCell properties over random play from random deals (hypothesis)."""

from __future__ import annotations

from collections import Counter
from contextlib import suppress

from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.freecell.rules import (
    CELL_NAMES,
    COLUMN_NAMES,
    HOME,
    MAX_DEAL,
    FreeCellMove,
    FreeCellPosition,
    new_game,
    parse,
)
from app.rules.cards import FULL_DECK, SUITS, Card
from app.rules.protocol import IllegalMoveError, InvalidMoveError

deals = st.integers(min_value=1, max_value=MAX_DEAL)
choices = st.lists(st.integers(min_value=0, max_value=10_000), max_size=30)


def play_out(
    deal: int, picks: list[int], automatic: bool
) -> tuple[list[FreeCellPosition], list[FreeCellMove]]:
    """Positions and moves of random play, with the automatic moves the service adds."""
    position = new_game(deal)
    positions, moves = [position], []
    for pick in picks:
        legal = position.legal_moves()
        if not legal:
            break
        move: FreeCellMove | None = legal[pick % len(legal)]
        while move is not None:
            position = position.play(move)
            positions.append(position)
            moves.append(move)
            move = position.automatic_move() if automatic else None
    return positions, moves


def cards_in_play(position: FreeCellPosition) -> list[Card]:
    table = [card for column in position.columns for card in column]
    return table + [card for card in position.cells if card is not None]


@settings(max_examples=50, deadline=None)
@given(deal=deals, picks=choices, automatic=st.booleans())
def test_random_play_keeps_every_card_once(deal: int, picks: list[int], automatic: bool) -> None:
    positions, _ = play_out(deal, picks, automatic)
    for position in positions:
        in_play = cards_in_play(position)
        assert len(set(in_play)) == len(in_play) == len(FULL_DECK) - sum(position.foundations)
        homes = Counter(card.suit for card in FULL_DECK if card not in set(in_play))
        assert tuple(homes[suit] for suit in SUITS) == position.foundations
        assert position.cards_left == len(in_play)


@settings(max_examples=50, deadline=None)
@given(deal=deals, picks=choices, automatic=st.booleans())
def test_foundations_grow_by_one_card_of_the_moved_suit(
    deal: int, picks: list[int], automatic: bool
) -> None:
    positions, moves = play_out(deal, picks, automatic)
    for before, move, after in zip(positions, moves, positions[1:], strict=False):
        grown = [new - old for old, new in zip(before.foundations, after.foundations, strict=True)]
        if move.target == HOME:
            card = before.card_at(move.source)
            assert card is not None and sorted(grown) == [0, 0, 0, 1]
            assert after.foundations[SUITS.index(card.suit)] == card.rank
        else:
            assert grown == [0, 0, 0, 0]


@settings(max_examples=50, deadline=None)
@given(deal=deals, picks=choices, automatic=st.booleans())
def test_positions_round_trip_through_text(deal: int, picks: list[int], automatic: bool) -> None:
    positions, _ = play_out(deal, picks, automatic)
    for position in positions:
        assert parse(position.to_text()) == position
        assert parse(position.to_text()).to_text() == position.to_text()


@settings(max_examples=50, deadline=None)
@given(deal=deals, picks=choices, automatic=st.booleans())
def test_notation_reads_back_as_the_same_move(deal: int, picks: list[int], automatic: bool) -> None:
    positions, _ = play_out(deal, picks, automatic)
    for position in positions[::3]:
        for move in position.legal_moves():
            again = position.parse_action(move.notation)
            assert again == move and again.notation == move.notation
            assert again.to_empty == move.to_empty
            assert position.play(again) == position.play(move)


@settings(max_examples=50, deadline=None)
@given(deal=deals, picks=choices, automatic=st.booleans())
def test_replaying_the_notation_reproduces_the_game(
    deal: int, picks: list[int], automatic: bool
) -> None:
    positions, moves = play_out(deal, picks, automatic)
    position = new_game(deal)
    for text in [move.notation for move in moves]:
        position = position.play(position.parse_action(text))
    assert position == positions[-1]


_EVERY_TEXT = [
    source + target + suffix
    for source in (*COLUMN_NAMES, *CELL_NAMES)
    for target in (*COLUMN_NAMES, *CELL_NAMES, HOME)
    for suffix in ("", *(f"v{count:x}" for count in range(1, 14)))
]


@settings(max_examples=25, deadline=None)
@given(deal=deals, picks=choices)
def test_parse_action_accepts_exactly_the_legal_moves(deal: int, picks: list[int]) -> None:
    """Every text either reads as a legal move or is refused with a typed error.

    The moves read are the legal moves plus whole columns moving into an empty column,
    which the rules allow and ``legal_moves`` leaves out.
    """
    position = play_out(deal, picks, automatic=True)[0][-1]
    accepted = set()
    for text in _EVERY_TEXT:
        with suppress(InvalidMoveError, IllegalMoveError):
            accepted.add(position.parse_action(text))
    relocations = {
        move
        for move in accepted
        if move.source in COLUMN_NAMES
        and move.to_empty
        and move.count == len(position.columns[COLUMN_NAMES.index(move.source)])
    }
    assert accepted - relocations == set(position.legal_moves())
    assert len(position.legal_moves()) == len(set(position.legal_moves()))
    assert position.is_stuck() == (not accepted)
    assert position.has_moves() == bool(position.legal_moves())
