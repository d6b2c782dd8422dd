"""What a player can ask of a game, parsed once from the text a form posts.

Undo, redo and giving up are every game's; anything else is the game's to read: a move in
its notation, or a command of its own (``all-home``, see ``GameKind.sweeps``).

>>> parse("  UNDO "), parse("redo"), parse("resign"), parse("8C  B7")
(Undo(), Redo(), Resign(), Play(text='8C B7'))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last move or redeal in force, with the automatic moves after it."""


@dataclass(frozen=True, slots=True)
class Redo:
    """Bring back the move or redeal the last undo took back (with its automatic moves):
    undone moves come back in order until a new move is made."""


@dataclass(frozen=True, slots=True)
class Resign:
    """Give the game up: final."""


@dataclass(frozen=True, slots=True)
class Play:
    """A move or other action of the game, in its notation (the engine reads it)."""

    text: str


@dataclass(frozen=True, slots=True)
class Between:
    """The move from place ``source`` to place ``target`` carrying ``count`` cards (a drag
    and drop names places, not a move: the engine says which move it is)."""

    source: str
    target: str
    count: int = 1


@dataclass(frozen=True, slots=True)
class CountHint:
    """The player was shown a hint or a solution: the game counts the help (no ply)."""


@dataclass(frozen=True, slots=True)
class AskVerdict:
    """The player asked "Still winnable?" here: the game keeps the position it asked at, so
    the answer is shown in this game only, and only there (no ply)."""


Command = Undo | Redo | Resign | Play | Between | CountHint | AskVerdict

_WORDS: Final[dict[str, Command]] = {
    "undo": Undo(),
    "redo": Redo(),
    "resign": Resign(),
}


def parse(text: str) -> Command:
    """The command a posted ``action`` names (its spaces normalised)."""
    words = " ".join(text.split())
    return _WORDS.get(words.lower()) or Play(words)
