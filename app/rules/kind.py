"""What a game gives the site: one value per game, which the registry (:mod:`app.games`)
maps from the game's kind. The service, the routes, the statistics, the command line and
the pages ask it and never name a game.

A game's view functions return words in the reader's language (its package uses the
catalogues); the board is a plain value its own templates (``templates/<kind>/``) draw.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from app.rules.protocol import Action, Answer, Position, Rules, Searches, Verdict

Refusals = Mapping[str, Callable[[Mapping[str, object]], str]]


class Board(Protocol):
    """What a game's templates draw: a plain value its own view makes (each game's is a
    frozen dataclass of its places; the shared layers only hand it to the templates)."""


P = TypeVar("P", bound=Position)
"""A game's position type."""
B = TypeVar("B", bound=Board)
"""A game's board type."""
P_in = TypeVar("P_in", bound=Position, contravariant=True)
B_out = TypeVar("B_out", bound=Board, covariant=True)


class BoardMaker(Protocol[P_in, B_out]):
    def __call__(
        self,
        position: P_in,
        *,
        playable: bool = True,
        pick: str | None = None,
    ) -> B_out:
        """The table as the player sees it; ``playable`` False draws it for looking only;
        ``pick`` is the held selection in the game's own syntax (``?sel=``)."""
        ...


def _never_why(position: Position, place: str) -> str | None:
    return None


def _never_fewer(after: Position, source: str, target: str, moved: int, held: int) -> str | None:
    return None


def _nowhere(position: Position, action: Action) -> tuple[str, int] | None:
    return None


def _nothing_held(source: str, held: int) -> str | None:
    return None


def _no_rounds_left(position: Position) -> int:
    return 0


def _no_reasons(position: Position, action: Action, line: int | None) -> str:
    return ""


@dataclass(frozen=True, slots=True)
class Presenter(Generic[P, B]):
    """A game in the reader's language and on screen: its words and its board."""

    name: Callable[[], str]
    """The game's name in the reader's language."""
    variant_name: Callable[[str], str]
    board: BoardMaker[P, B]
    describe: Callable[[str, Action, P, P], str]
    """``describe(kind, action, before, after)``: an action in words (``8♣ to B7``)."""
    standing: Callable[[P], str]
    """Where a game in play stands, in a sentence (its score, its cards left)."""
    hinted_places: Callable[[P, Action], frozenset[str]]
    """The places a hinted move joins, as its board names them."""
    unsure_hint: Callable[[str], str]
    """A hint found before the search finished (the move in words)."""
    verdict: Callable[[P, Verdict, int, int], str]
    """``verdict(position, verdict, moves, positions searched)`` in words."""
    solution: Callable[[Verdict], str]
    """What the solver's line on the solution page is."""
    refusals: Refusals
    """The engine's refusal codes in words."""
    board_cells: Callable[[B], Sequence[Hashable]] | None = None
    """The board's cells in a fixed order, each drawn by ``cell_template`` with the id
    ``c-<name>``: a move's answer then sends only the cells it changed. None: the whole
    board each time."""
    cell_template: str = ""
    why: Callable[[P, str], str | None] = _never_why
    """Why choosing the card or gap at ``place`` (``'B7'``) does nothing, in words (a card
    that cannot move, a dead gap); None when it does something or names nothing."""
    words_only: frozenset[str] = frozenset()
    """Actions whose notation is a word (a ``redeal``): a replay shows them in
    words alone, and a move's notation beside its words."""
    fewer_moved: Callable[[P, str, str, int, int], str | None] = _never_fewer
    """``fewer_moved(after, source, target, moved, held)``: the player picked up ``held``
    cards at place ``source`` and only ``moved`` went to ``target``, in words with the
    reason, read from ``after`` (the position right after the move); None when it cannot
    tell."""
    held: Callable[[str, int], str | None] = _nothing_held
    """``held(source, count)``: the selection (``pick``, ``?sel=``) that still holds
    ``count`` cards taken from place ``source`` after a refused move, in the game's own
    syntax; None: nothing stays held."""
    progress: Callable[[P], str] | None = None
    moved_to: Callable[[P, Action], tuple[str, int] | None] = _nowhere
    """``moved_to(before, action)``: where the cards ``action`` moves lie once it is
    played (the id of the board's element that holds them, and how many of its last cards
    they are), to mark the last move; None for an action that moves no card."""
    """A racer's progress in a few words, for a race's table (cards home; cards in place
    and redeals left). None: the game's :attr:`standing`."""
    explain: Callable[[P, Action, int | None], str] = _no_reasons
    """``explain(before, move, line)``: why a move is good, facts read from the positions
    (cards sent home, a gap opened ...), whole sentences; ``line``: the moves the solver's
    line still needs after it (None: not known). Empty: nothing to say."""


@dataclass(frozen=True, slots=True)
class Sweep(Generic[P]):
    """A command a game declares beside its moves ("All home": every card that can go home
    goes there): the actions it plays, the first the player's and the rest automatic, so
    one undo takes them all back."""

    actions: Callable[[P], Sequence[Action]]
    """The actions from ``position``; raises a refusal when there is none."""
    said: Callable[[int], str]
    """What it did, in words, given how many actions it played."""


def _no_actions(position: Position) -> Sequence[Action]:
    return ()


def _no_line(position: Position) -> tuple[str, ...] | None:
    return None


@dataclass(frozen=True, slots=True)
class GameKind(Generic[P, B]):
    """A game as three parts, its rules, its searches and its presenter, and a few facts."""

    rules: Rules[P]
    searches: Callable[[], Searches]
    """A fresh memory of searches, one per solver process."""
    presenter: Presenter[P, B]
    max_score: int | None = None
    """The best score, for a game that keeps one (48 cards in place)."""
    other_actions: Callable[[P], Sequence[Action]] = _no_actions
    """Actions besides the moves (a redeal), for the demo games."""
    quick_line: Callable[[P], tuple[str, ...] | None] = _no_line
    """A winning line found within a small search, for the demo games (or None)."""
    uses_auto_moves: bool = False
    """Cards go home by themselves as the player's "auto home" setting says."""
    keeps_unsure_hints: bool = True
    """Whether an unsure hint may be answered again from memory (a game whose
    search carries on: no, asking again must carry it on)."""
    sweeps: Mapping[str, Sweep[P]] = field(default_factory=dict)
    """The game's own commands by the ``action`` a form posts (``'all-home'``)."""
    proofs_cover_the_game: bool = True
    """Whether a deal proved impossible (``app/proofs/``) cannot be won from any position
    it leads to; a game played in rounds proves its first round only."""
    round_starts: frozenset[str] = frozenset()
    """Notations of the actions that start a new round (a redeal): a position's verdict
    is then about its round (cleared without another redeal), and a review looks for the
    move that lost each round."""
    rounds_left: Callable[[P], int] = _no_rounds_left
    """How many more rounds the player may still start from a position (its redeals
    left). Where none is left, a round's verdict is the whole game's: a review
    names the move after which the whole game could no longer be won from it."""
    probe_at: float = 0.5
    """Where a review's binary search asks between a winnable and a lost position, as a
    share of the way from the winnable one: the middle, unless one verdict costs more than
    the other (where lost verdicts reuse each other's positions and each winnable one is a
    search of its own, nearer the lost end)."""
    shortest_line: Callable[[P, int], Answer] | None = None
    """A winning line from a deal's start as short as the game's search makes it within
    a budget in milliseconds (a deal's par: :mod:`app.service.pars`), in a solver process."""

    @property
    def kind(self) -> str:
        return self.rules.kind

    # The presenter's members, as the site has always read them off the game.

    @property
    def name(self) -> Callable[[], str]:
        return self.presenter.name

    @property
    def variant_name(self) -> Callable[[str], str]:
        return self.presenter.variant_name

    @property
    def board(self) -> BoardMaker[P, B]:
        return self.presenter.board

    @property
    def describe(self) -> Callable[[str, Action, P, P], str]:
        return self.presenter.describe

    @property
    def standing(self) -> Callable[[P], str]:
        return self.presenter.standing

    @property
    def progress(self) -> Callable[[P], str]:
        return self.presenter.progress or self.presenter.standing

    @property
    def hinted_places(self) -> Callable[[P, Action], frozenset[str]]:
        return self.presenter.hinted_places

    @property
    def moved_to(self) -> Callable[[P, Action], tuple[str, int] | None]:
        return self.presenter.moved_to

    @property
    def unsure_hint(self) -> Callable[[str], str]:
        return self.presenter.unsure_hint

    @property
    def verdict(self) -> Callable[[P, Verdict, int, int], str]:
        return self.presenter.verdict

    @property
    def solution(self) -> Callable[[Verdict], str]:
        return self.presenter.solution

    @property
    def refusals(self) -> Refusals:
        return self.presenter.refusals

    @property
    def board_cells(self) -> Callable[[B], Sequence[Hashable]] | None:
        return self.presenter.board_cells

    @property
    def cell_template(self) -> str:
        return self.presenter.cell_template

    @property
    def why(self) -> Callable[[P, str], str | None]:
        return self.presenter.why


AnyGameKind = GameKind[Any, Any]  # games of different position and board types
"""A game of the registry, whatever its position and board types (the registry holds
games of different types; each game's own ``KIND`` is checked against its own)."""
