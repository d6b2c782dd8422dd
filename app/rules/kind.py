"""What a game gives the site: one value per game, which the registry (:mod:`app.games`)
maps from the game's kind. The service, the routes, the statistics, the command line and
the pages ask it and never name a game.

A game's view functions return words in the reader's language (its package uses the
catalogues); the board is a plain value its own templates (``templates/<kind>/``) draw.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.rules.protocol import Action, Position, Rules, Searches, Verdict

Refusals = Mapping[str, Callable[[Mapping[str, object]], str]]


@dataclass(frozen=True, slots=True)
class GameKind:
    rules: Rules
    name: Callable[[], str]
    """The game's name in the reader's language."""
    variant_name: Callable[[str], str]
    searches: Callable[[], Searches]
    """A fresh memory of searches, one per solver process."""
    board: Callable[..., Any]
    """``board(position, *, playable, pick, auto_moves)``: what its templates draw."""
    describe: Callable[[str, str, Position, Position], str]
    """``describe(kind, notation, before, after)``: an action in words (``8♣ to B7``)."""
    standing: Callable[[Position], str]
    """Where a game in play stands, in a sentence (its score, its cards left)."""
    hinted_places: Callable[[Position, str], frozenset[str]]
    """The places a hinted move joins, as its board names them."""
    moved_count: Callable[[Position, str], int]
    """How many cards an action moves (a run moves several)."""
    unsure_hint: Callable[[str], str]
    """A hint found before the search finished (the move in words)."""
    verdict: Callable[[Position, Verdict, int, int], str]
    """``verdict(position, verdict, moves, positions searched)`` in words."""
    solution: Callable[[Verdict], str]
    """What the solver's line on the solution page is."""
    refusals: Refusals
    """The engine's refusal codes in words."""
    max_score: int | None = None
    """The best score, for a game that keeps one (48 cards in place)."""
    other_actions: Callable[[Position], Sequence[Action]] = lambda position: ()
    """Actions besides the moves (a redeal), for the demo games."""
    quick_line: Callable[[Position], tuple[str, ...] | None] = lambda position: None
    """A winning line found within a small search, for the demo games (or None)."""
    uses_auto_moves: bool = False
    """Safe cards go home by themselves unless the player turned that off."""
    board_cells: Callable[[Any], Sequence[Any]] | None = None
    """The board's cells in a fixed order, each drawn by ``cell_template`` with the id
    ``c-<name>``: a move's answer then sends only the cells it changed. None: the whole
    board each time."""
    cell_template: str = ""
    why: Callable[[Position, str], str | None] = lambda position, place: None
    """Why choosing the card or gap at ``place`` (``'B7'``) does nothing, in words (a card
    that cannot move, a dead gap); None when it does something or names nothing."""
    keeps_unsure_hints: bool = True
    """Whether an unsure hint may be answered again from memory (a game whose
    search carries on: no, asking again must carry it on)."""

    @property
    def kind(self) -> str:
        return self.rules.kind
