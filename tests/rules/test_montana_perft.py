"""Montana perft: how many positions 1, 2, 3 … moves lead to, pinned and counted twice.

A perft counts the leaves of the tree of every line of play of a given length (positions
reached by different lines count once per line). The engine's counts (``legal_moves()`` and
``play``) are pinned for a few deals in both variants, from a mid-game position and from a
position after a redeal.

The pinned numbers are not the engine's word alone. A small counter in this module, written
from ``shared/rules/montana.md`` and reading nothing but the grid as text (and, for
redeals, the deal number and the redeals done and left), must reach the same numbers at
every pinned depth; for the first two moves it must also list the same moves as the engine
at every node and reach the same grids.

**Redeals.** Unless a test says otherwise a redeal is *not* a move here: only
``legal_moves()`` is counted. The variant only sets how many redeals a game has (Easy 4,
Expert 2), so without redeals both variants count the same. The tests that count the
redeal as one more move wherever ``can_redeal()`` holds see the variants part at depth 3,
where Expert has no third redeal.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.games.montana import rules as montana
from app.games.montana.rules import MontanaPosition, redeal_seed
from app.rules.deals import microsoft_shuffle

# -- the independent counter -------------------------------------------------------------
#
# Written from the rules page alone: 4 rows of 13 cells, a card is two characters (rank
# A23456789TJQK, suit), ``None`` a gap. It shares no code with the engine except the
# shuffle a redeal draws from (see ``redealt``).

RANKS = "A23456789TJQK"
Grid = list[str | None]


def read_grid(text: str) -> Grid:
    """The 52 cells of a position's text, row by row: four lines of 13 tokens at its end."""
    lines = [line.split() for line in text.strip().splitlines()][-4:]
    assert [len(line) for line in lines] == [13, 13, 13, 13]
    return [None if token == "--" else token for line in lines for token in line]


def name(cell: int) -> str:
    return f"{'ABCD'[cell // 13]}{cell % 13 + 1}"


def fits(grid: Grid, gap: int) -> list[str]:
    """The cards that may go into the gap at ``gap``."""
    if gap % 13 == 0:  # column 1: any 2, except a 2 already standing in column 1
        return [
            card
            for cell, card in enumerate(grid)
            if card is not None and card[0] == "2" and cell % 13 != 0
        ]
    left = grid[gap - 1]
    if left is None or left[0] == "K":  # dead: after a gap or after a king
        return []
    return [RANKS[RANKS.index(left[0]) + 1] + left[1]]  # same suit, one rank higher


def moves(grid: Grid) -> list[tuple[str, int]]:
    """Every move as (card, gap)."""
    return [
        (card, gap) for gap, here in enumerate(grid) if here is None for card in fits(grid, gap)
    ]


def moved(grid: Grid, card: str, gap: int) -> Grid:
    after = list(grid)
    after[grid.index(card)], after[gap] = None, card
    return after


def count(grid: Grid, depth: int) -> int:
    """Leaves after ``depth`` moves (no redeals); the grid is changed and changed back."""
    if depth == 0:
        return 1
    total = 0
    for card, gap in moves(grid):
        source = grid.index(card)
        grid[source], grid[gap] = None, card
        total += count(grid, depth - 1)
        grid[source], grid[gap] = card, None
    return total


def in_place(grid: Grid, row: int) -> int:
    """The length of ``row``'s sequence: 2, 3, 4, … of one suit from column 1."""
    first = grid[row * 13]
    if first is None or first[0] != "2":
        return 0
    length = 1
    while length < 12 and grid[row * 13 + length] == RANKS[length + 1] + first[1]:
        length += 1
    return length


def redealt(grid: Grid, deal: int, index: int) -> Grid:
    """Redeal ``index`` (0-based) of deal ``deal``: sequences stay, one gap after each.

    The rules page leaves the shuffle to the engine ("a deterministic pseudo-random stream
    derived from the deal number and the redeal's index"). Its convention, taken as given
    here: the loose cards are gathered in the order 2C 2D 2H 2S 3C … KS and shuffled with
    Microsoft's shuffle seeded by :func:`app.games.montana.rules.redeal_seed`. The rest is the
    rules page's.
    """
    lengths = [in_place(grid, row) for row in range(4)]
    loose = sorted(
        (card for cell, card in enumerate(grid) if card and cell % 13 >= lengths[cell // 13]),
        key=lambda card: (RANKS.index(card[0]), "CDHS".index(card[1])),
    )
    stream = iter(microsoft_shuffle(loose, redeal_seed(deal, index)))
    after: Grid = []
    for row, length in enumerate(lengths):
        after += grid[row * 13 : row * 13 + length]
        after.append(None)
        after += [next(stream) for _ in range(12 - length)]
    return after


def count_with_redeals(grid: Grid, depth: int, deal: int, done: int, left: int) -> int:
    """Like :func:`count`, with the redeal one more move while redeals are left and the
    game is not won (every row 2 … K)."""
    if depth == 0:
        return 1
    total = sum(
        count_with_redeals(moved(grid, card, gap), depth - 1, deal, done, left)
        for card, gap in moves(grid)
    )
    if left > 0 and any(in_place(grid, row) < 12 for row in range(4)):
        total += count_with_redeals(redealt(grid, deal, done), depth - 1, deal, done + 1, left - 1)
    return total


# -- the engine --------------------------------------------------------------------------


def perft(position: MontanaPosition, depth: int, *, redeals: bool = False) -> int:
    """Leaves after ``depth`` moves of ``legal_moves()``; with ``redeals``, the redeal
    counts as one more move wherever ``can_redeal()`` holds."""
    if depth == 0:
        return 1
    total = sum(
        perft(position.play(move), depth - 1, redeals=redeals) for move in position.legal_moves()
    )
    if redeals and position.can_redeal():
        total += perft(position.redeal(), depth - 1, redeals=True)
    return total


def nodes(position: MontanaPosition, depth: int) -> Iterator[MontanaPosition]:
    """Every position at most ``depth`` moves away, once per line."""
    yield position
    if depth:
        for move in position.legal_moves():
            yield from nodes(position.play(move), depth - 1)


def check_moves_against_the_counter(position: MontanaPosition, depth: int) -> None:
    """At every node of the first ``depth`` moves, the engine lists the counter's moves
    and each move leaves the grid the counter expects."""
    for node in nodes(position, depth):
        grid = read_grid(node.grid_text())
        listed = node.legal_moves()
        assert sorted(move.notation for move in listed) == sorted(
            f"{card} {name(gap)}" for card, gap in moves(grid)
        )
        for move in listed:
            after = read_grid(node.play(move).grid_text())
            assert after == moved(grid, move.card.text, move.cell)


def play(position: MontanaPosition, *notations: str) -> MontanaPosition:
    for notation in notations:
        position = position.play(position.parse_action(notation))
    return position


# -- the counter on its own --------------------------------------------------------------

DEAL_1 = """\
JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S --
QC KH 3H 2S KS 9D QD JS -- -- 3C 4C 5C
TS QH 4H -- 4D 7S 3S TD 4S TH 8H 2C JH
7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H
"""
"""Deal #1 as the rules page draws it."""


def test_the_counter_reads_deal_1_from_the_rules_page() -> None:
    grid = read_grid(DEAL_1)
    assert grid == read_grid(montana.new_game(1).grid_text())
    # A13 after 5S wants 6S, B9 after JS wants QS, B10 after a gap is dead, C4 after 4H
    # wants 5H.
    assert [(card, name(gap)) for card, gap in moves(grid)] == [
        ("6S", "A13"),
        ("QS", "B9"),
        ("5H", "C4"),
    ]


DEAD_GAPS = """\
2C -- 4C KD -- 5C 6C 7C 8C 9C TC JC QC
-- 3C 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD
KH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KC
KS -- 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS
"""
"""A2 wants 3C; A5 and D2 are dead after kings; B1 takes any 2 but 2C, which is in A1."""


def test_the_counter_knows_dead_gaps_and_column_one() -> None:
    grid = read_grid(DEAD_GAPS)
    assert [f"{card} {name(gap)}" for card, gap in moves(grid)] == [
        "3C A2", "2D B1", "2H B1", "2S B1"
    ]  # fmt: skip
    assert [in_place(grid, row) for row in range(4)] == [1, 0, 0, 0]
    assert in_place(moved(grid, "3C", 1), 0) == 3
    check_moves_against_the_counter(montana.parse(DEAD_GAPS), 3)


# -- perft from the deal -----------------------------------------------------------------

DEALS = {
    1: [3, 10, 35, 124, 440],
    2: [4, 15, 54, 197, 742],
    617: [4, 16, 62, 228, 795],
    11982: [6, 27, 113, 460, 1862],
}
"""Leaves after 1 … 5 moves from each deal, redeals not counted (the same in both
variants). Depth 1 reads off the grid by hand; in deal 11982 A1 takes any of the four 2s,
A2 is dead after a gap, A4 wants 5H and B2 wants 8H: 6 moves."""


@pytest.mark.parametrize("variant", ["expert", "easy"])  # the moons: test_montana_moons.py
@pytest.mark.parametrize("deal", DEALS)
def test_perft_from_the_deal(deal: int, variant: str) -> None:
    position = montana.new_game(deal, variant)
    depths = range(1, len(DEALS[deal]) + 1)
    grid = read_grid(position.grid_text())
    assert [count(grid, depth) for depth in depths] == DEALS[deal]
    check_moves_against_the_counter(position, 2)
    assert [perft(position, depth) for depth in depths] == DEALS[deal]


WITH_REDEALS = {
    (1, "expert"): [4, 30, 284],
    (1, "easy"): [4, 30, 285],
    (2, "expert"): [5, 30, 197],
    (2, "easy"): [5, 30, 198],
    (617, "expert"): [5, 31, 206],
    (617, "easy"): [5, 31, 207],
    (11982, "expert"): [7, 50, 406],
    (11982, "easy"): [7, 50, 407],
}
"""Leaves after 1 … 3 moves from each deal, the redeal counted as a move wherever
``can_redeal()`` holds. Depth 3 holds one more line in Easy: three redeals in a row."""


@pytest.mark.parametrize(("deal", "variant"), WITH_REDEALS)
def test_perft_counting_the_redeal(deal: int, variant: str) -> None:
    position = montana.new_game(deal, variant)
    expected = WITH_REDEALS[deal, variant]
    depths = range(1, len(expected) + 1)
    grid = read_grid(position.grid_text())
    assert [
        count_with_redeals(grid, depth, deal, position.redeals_done, position.redeals_left)
        for depth in depths
    ] == expected
    assert [perft(position, depth, redeals=True) for depth in depths] == expected
    assert read_grid(position.redeal().grid_text()) == redealt(grid, deal, 0)


# -- perft from the middle of a game and after a redeal ----------------------------------

MID_GAME_LINE = ("2C A1", "3C A2", "8H B2", "5H A4", "5C D9", "2D C1", "6H A5")
MID_GAME = """\
2C 3C 4H 5H 6H 6S TS JS 3D 3H QS QC 8S
7H 8H KS KD -- 5S 4D 9H JH 9S -- JC 5D
2D 8C 9D TD KH 7C 6C -- TH QH 6D TC 4S
7S JD 7D -- 9C 2H QD 4C 5C KC 8D 2S 3S
"""
"""Deal 11982 after ``MID_GAME_LINE``: sequences in rows A and C, B5 dead after KD."""
MID_GAME_COUNTS = [3, 7, 14, 30, 58]

AFTER_REDEAL = """\
2C 3C -- JS TS KD 6S JC 5S 2S 3S 4C 3D
-- 3H QS 8S 7C 6D 8H KS 2H 5H JH QD 5C
2D -- QH QC 9S 5D 7D TD 8D KC 4S 9D 7S
-- 7H KH JD 9C TC TH 4D 6H 8C 9H 4H 6C
"""
"""``MID_GAME`` redealt: rows A and C keep their sequences, one gap after each sequence."""
AFTER_REDEAL_COUNTS = [6, 26, 95, 279, 689]


def test_perft_from_the_middle_of_a_game() -> None:
    position = play(montana.new_game(11982), *MID_GAME_LINE)
    assert read_grid(position.grid_text()) == read_grid(MID_GAME)
    grid = read_grid(MID_GAME)
    depths = range(1, len(MID_GAME_COUNTS) + 1)
    assert [count(grid, depth) for depth in depths] == MID_GAME_COUNTS
    check_moves_against_the_counter(position, 2)
    assert [perft(position, depth) for depth in depths] == MID_GAME_COUNTS


def test_perft_after_a_redeal() -> None:
    position = play(montana.new_game(11982), *MID_GAME_LINE).redeal()
    assert read_grid(AFTER_REDEAL) == redealt(read_grid(MID_GAME), 11982, 0)
    assert read_grid(position.grid_text()) == read_grid(AFTER_REDEAL)
    grid = read_grid(AFTER_REDEAL)
    depths = range(1, len(AFTER_REDEAL_COUNTS) + 1)
    assert [count(grid, depth) for depth in depths] == AFTER_REDEAL_COUNTS
    check_moves_against_the_counter(position, 2)
    assert [perft(position, depth) for depth in depths] == AFTER_REDEAL_COUNTS
