"""The service: what the routes, the command line and the benches ask of games.

One job a module: :mod:`~app.service.model` (a game as the pages see it, and why an action
changes nothing), :mod:`~app.service.commands` (what a player can ask, parsed once),
:mod:`~app.service.play` (the one place that changes a game), :mod:`~app.service.players`,
:mod:`~app.service.records` (reading games), :mod:`~app.service.help` (hints, verdicts,
solutions), :mod:`~app.service.solvers` (the process pool searches run in),
:mod:`~app.service.table` (everything a game's page shows) and
:mod:`~app.service.verify`. It never names a game: it asks the registry
(:mod:`app.games`).
"""

from __future__ import annotations

from app.service import commands
from app.service.commands import (
    AskVerdict,
    Between,
    Command,
    CountHint,
    Play,
    Redo,
    Resign,
    Undo,
)
from app.service.help import (
    Solution,
    ask_hint,
    from_proof,
    known_answer,
    solution,
    solution_known,
    winnable,
)
from app.service.model import (
    IDLE_CAP,
    Game,
    GameNotFound,
    GameOver,
    HistoryEntry,
    NotBegun,
    StaleVersion,
    TimeUp,
    UnknownGameKind,
    utcnow,
)
from app.service.play import Acted, act, apply, restart, start
from app.service.players import (
    CHOICES,
    DEFAULT_SETTINGS,
    Settings,
    UnknownSetting,
    ensure_player,
    player_exists,
    save_settings,
    settings,
)
from app.service.records import (
    PAGE_SIZE,
    STATUSES,
    STEPS_SHOWN,
    GamePage,
    Steps,
    history,
    history_export,
    load,
    my_games,
    replay_window,
    steps_window,
    unfinished,
)
from app.service.solvers import SolverBusy, SolverPool, SolverThinking
from app.service.table import Table, game_and_settings, table
from app.service.verify import Mismatch, verify

__all__ = [
    "CHOICES",
    "DEFAULT_SETTINGS",
    "IDLE_CAP",
    "PAGE_SIZE",
    "STATUSES",
    "STEPS_SHOWN",
    "Acted",
    "AskVerdict",
    "Between",
    "Command",
    "CountHint",
    "Game",
    "GameNotFound",
    "GameOver",
    "GamePage",
    "HistoryEntry",
    "Mismatch",
    "NotBegun",
    "Play",
    "Redo",
    "Resign",
    "Settings",
    "Solution",
    "SolverBusy",
    "SolverPool",
    "SolverThinking",
    "StaleVersion",
    "Steps",
    "Table",
    "TimeUp",
    "Undo",
    "UnknownGameKind",
    "UnknownSetting",
    "act",
    "apply",
    "ask_hint",
    "commands",
    "ensure_player",
    "from_proof",
    "game_and_settings",
    "history",
    "history_export",
    "known_answer",
    "load",
    "my_games",
    "player_exists",
    "replay_window",
    "restart",
    "save_settings",
    "settings",
    "solution",
    "solution_known",
    "start",
    "steps_window",
    "table",
    "unfinished",
    "utcnow",
    "verify",
    "winnable",
]
