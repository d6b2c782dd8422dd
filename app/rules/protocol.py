"""What every game's rules offer, so the service, store and web handle any game alike.

A game is a module in :mod:`app.rules` exposing a :class:`Rules` value. Its positions are
immutable; playing an action returns a new position. Actions have a context-free text
form (their ``notation``); reading one needs the position (``position.parse_action``),
because some notations are only meaningful on a board.

Action kinds, as the history stores them:

- ``move``: an action the player chose (a move, or one of the game's own, such as
  a ``redeal``: each game names and words its actions);
- ``auto``: a move the game made for the player (safe moves home);
- ``undo``: takes back the last ``move`` and the ``auto`` moves after it;
- ``resign``: the player gives up; final.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, Self, TypeVar

ActionKind = Literal["move", "auto", "undo", "redo", "resign"]
Outcome = Literal["won", "lost"]
AutoHome = Literal["off", "safe", "all"]
"""Which cards a game sends home by itself after a move: none, the safe ones (the
default), or every one that can go."""
AUTO_HOME_MODES: tuple[AutoHome, ...] = ("off", "safe", "all")


class RuleError(ValueError):
    """A refusal with a ``code`` and its ``params``, so a reader can word it in any language.

    ``str(error)`` is the English sentence (for the command line and logs); the web layer
    words ``code`` with ``params`` through its catalogues. Params are cards, numbers and
    notation (cells, places, move text), never words.

    >>> error = IllegalMoveError("no redeals left", "game.no_redeals")
    >>> error.code, error.params, str(error)
    ('game.no_redeals', {}, 'no redeals left')
    """

    def __init__(self, message: str, code: str = "", **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params
        self.game: object = None
        """What the refusal happened to, as a layer above knows it (the service attaches
        the game, so the page that says why needs no second read)."""


class InvalidMoveError(RuleError):
    """Text that is not an action of this game at all (``'8X Z99'``)."""


class IllegalMoveError(RuleError):
    """A well-formed action that the rules do not allow in this position."""


class InvalidPositionError(ValueError):
    """Position text that is malformed or describes an impossible position."""


class Action(Protocol):
    @property
    def notation(self) -> str: ...

    @property
    def kind(self) -> ActionKind: ...

    @property
    def count(self) -> int:
        """How many cards the player moves with it as one: a run's length, else one."""
        ...


class Position(Protocol):
    def to_text(self) -> str:
        """The canonical, lossless text form; ``Rules.parse`` reads it back."""
        ...

    def legal_moves(self) -> Sequence[Action]:
        """Every move the player may make (not counting redeals)."""
        ...

    def parse_action(self, text: str) -> Action:
        """Read a move or other game action in this game's notation."""
        ...

    def action_between(self, source: str, target: str, count: int) -> Action:
        """The move that takes ``count`` cards (1 for a single card) from place ``source``
        to place ``target``, places named as the game names them (a column ``'3'``, a
        free cell ``'b'``, home ``'h'``; a cell such as ``'B7'``).

        A drag and drop names places, not a move: this is how a reader turns one into the
        move, so that move text is only ever built here. Raises :class:`InvalidMoveError`
        for a name that is no place, :class:`IllegalMoveError` when no such move is allowed.
        """
        ...

    def play(self, action: Action) -> Self:
        """The position after ``action``; raises :class:`IllegalMoveError`."""
        ...

    def automatic_move(self, mode: AutoHome = "safe") -> Action | None:
        """The next move the game makes by itself under ``mode``, if any (kind ``auto``)."""
        ...

    def is_won(self) -> bool: ...

    def is_stuck(self) -> bool:
        """No move and no redeal is left."""
        ...

    def is_lost(self) -> bool:
        """Lost by the rules themselves (not by resigning)."""
        ...

    def outcome(self) -> Outcome | None:
        """How the game ended by its rules, as one value: ``won``, ``lost`` (no move and
        no redeal left), or None while it goes on (resigning is the player's, not the
        position's)."""
        ...

    @property
    def score(self) -> int | None:
        """The game's score where it has one (cards in place)."""
        ...

    @property
    def cards_left(self) -> int:
        """Cards not yet where the game wants them."""
        ...


P_co = TypeVar("P_co", bound=Position, covariant=True)


class Rules(Protocol[P_co]):
    @property
    def kind(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def variants(self) -> tuple[str, ...]: ...

    @property
    def default_variant(self) -> str: ...

    @property
    def max_deal(self) -> int: ...

    def new_game(self, deal: int, variant: str) -> P_co: ...

    def parse(self, text: str) -> P_co: ...


Verdict = Literal["solved", "unsolvable", "unknown"]
"""What a search found: a winning line (a game played in rounds: the round cleared without
another redeal), a proof that there is none, or no answer within its budget."""


@dataclass(frozen=True, slots=True)
class Answer:
    """A solver's answer for a position: its verdict and its line of moves in the game's
    notation (the win when solved; a game played in rounds: else the round's best line
    found)."""

    verdict: Verdict
    moves: tuple[str, ...]
    positions: int
    """Positions searched."""
    seconds: float
    best_score: int | None = None
    """For a game played in rounds: the score at the end of the line."""


@dataclass(frozen=True, slots=True)
class Hint:
    move: str | None
    """The move to play (``redeal`` where that is the way on); None: nothing helps."""
    sure: bool
    """False when the budget ran out and this is only the best move found so far."""


class Searches(Protocol):
    """A game's searches in one solver process, with what they keep between asks."""

    def hint(self, position: Position, budget_ms: int) -> Hint: ...

    def answer(self, position: Position, budget_ms: int) -> Answer: ...

    def forget(self) -> None:
        """Let go of everything kept (the process grew too large)."""
        ...
