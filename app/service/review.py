"""A game's review: every position of the moves in force, whether it could still be won,
and the move that lost the game (its turning point), found by a binary search.

Once a position cannot be won, no later one can (every later one is reached from it), so
within a stretch of play that no chance breaks (a whole game; a round of a game played in rounds,
from one redeal to the next) the first lost position is found with a few verdicts, not one
a move. Every verdict comes from the solver pool (:mod:`app.service.solvers`), never from
this process; verdicts already known are used first: a won board, the deal's shipped proof
(:mod:`app.service.proofs`), verdicts kept here from earlier reviews, then the pool's own
kept answers. A review is worked out a little at each ask (``wait`` seconds at most): the
page asks again until it is ``done``; a finished review is kept per game and version,
bounded in bytes (a finished game's never changes).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from app.caches import Kept, text_size
from app.rules.history import entry as as_entry
from app.rules.history import positions as all_positions
from app.rules.protocol import Answer, Position
from app.service import proofs
from app.service.model import Game, HistoryEntry
from app.service.records import history, load
from app.service.solvers import Job, SolverBusy, SolverPool
from app.store import Database

StepVerdict = Literal["winnable", "lost", "unsure", "pending"]
"""A position's verdict on the review: it can still be won (a round: cleared without another
redeal), it cannot, the search ran out of its budget, or not worked out yet."""

REVIEW_WAIT: Final = 0.8
"""Seconds one ask of a review waits for the solvers before showing what is known."""
REVIEWS_BYTES: Final = 4 * 1024 * 1024
VERDICTS_BYTES: Final = 4 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Known:
    """A position's verdict as kept: the first move of the solver's winning line and how
    many moves that line has (a verdict from a proof has no line: None, 0)."""

    verdict: StepVerdict
    first: str | None = None
    line: int = 0


@dataclass(frozen=True, slots=True)
class Stop:
    """A position of the moves in force: the replay step of the move that made it (0: the
    deal; a move's automatic moves are part of it), that move's notation, the position,
    and the round it belongs to (a game without rounds: 0)."""

    step: int
    notation: str
    position: Position
    text: str
    round: int


@dataclass(frozen=True, slots=True)
class TurningPoint:
    """The move that lost the game (a round): ``index``, the stop it made; the move that
    kept it winnable instead, from the solver's line at the stop before (None while not
    known), and how many moves that line had."""

    index: int
    step: int
    round: int
    kept: str | None
    line: int


@dataclass(frozen=True, slots=True)
class Stretch:
    """The longest stretch of play that went nowhere: the position at step ``start`` came
    back at step ``end`` (moves back and forth, undos and all)."""

    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Review:
    game: Game
    stops: tuple[Stop, ...]
    verdicts: tuple[StepVerdict, ...]
    turning_points: tuple[TurningPoint, ...]
    never_winnable: tuple[int, ...]
    """Rounds whose first position could not be won (a game without rounds: round 0 is the
    deal, proved impossible)."""
    done: bool
    busy: bool = False
    stretch: Stretch | None = None
    in_rounds: bool = False
    rounds_lost: tuple[int, ...] = field(default=())
    game_turning: TurningPoint | None = None
    """A game played in rounds: the move after which no new round could save the game
    (the first lost position with no round left to start, right after one from which its
    round, and so the game, could still be won); None where the verdicts do not show it."""

    @property
    def empty(self) -> bool:
        """No move to review yet."""
        return len(self.stops) < 2

    def stop_at(self, step: int) -> int:
        """The index of the stop shown at replay step ``step`` (the last at or before it)."""
        found = 0
        for index, stop in enumerate(self.stops):
            if stop.step <= step:
                found = index
        return found


_reviews = Kept[tuple[str, int], Review](
    "reviews", REVIEWS_BYTES, lambda key, review: 300 + 200 * len(review.stops)
)
_verdicts = Kept[tuple[str, str], Known](
    "review verdicts", VERDICTS_BYTES, lambda key, known: text_size(*key, known.first or "")
)


def stops_of(game: Game, entries: Sequence[HistoryEntry]) -> list[Stop]:
    """The positions of the moves in force, from the deal: one after each move the player
    chose (with the automatic moves that followed it)."""
    stack: list[HistoryEntry] = []
    for entry in entries:
        if entry.kind == "undo":
            while stack and stack[-1].kind == "auto":
                stack.pop()
            if stack:
                stack.pop()
        elif entry.kind != "resign":
            stack.append(entry)
    rounds = game.game.round_starts
    position = game.rules.new_game(game.deal, game.variant)
    stops = [Stop(0, "", position, position.to_text(), 0)]
    for entry in stack:
        position = position.play(position.parse_action(entry.notation))
        if entry.kind == "auto" and len(stops) > 1:
            last = stops[-1]
            stops[-1] = Stop(last.step, last.notation, position, position.to_text(), last.round)
            continue
        round_ = stops[-1].round + (1 if entry.notation in rounds else 0)
        stops.append(Stop(entry.ply, entry.notation, position, position.to_text(), round_))
    return stops


def longest_stretch(game: Game, entries: Sequence[HistoryEntry]) -> Stretch | None:
    """The longest stretch between two moments that showed the same position (each step
    of the whole history, undos included)."""
    position = game.rules.new_game(game.deal, game.variant)
    seen: dict[str, int] = {position.to_text(): 0}
    best: Stretch | None = None
    texts = all_positions(
        game.rules, game.deal, game.variant, [as_entry(e.kind, e.notation) for e in entries]
    )
    for step, at in enumerate(texts[1:], start=1):
        if entries[step - 1].kind == "resign":
            continue  # giving up leaves the board as it was: no stretch of play
        text = at.to_text()
        first = seen.setdefault(text, step)
        if first != step and (best is None or step - first > best.end - best.start):
            best = Stretch(first, step)
    return best


def review(*, db: Database, solvers: SolverPool, game_id: str, wait: float = REVIEW_WAIT) -> Review:
    """The game's review as far as it is worked out within ``wait`` seconds; raises
    :class:`~app.service.model.GameNotFound`. Never raises :class:`SolverBusy`: a full
    pool makes a review that says so (``busy``) and asks again later."""
    game = load(db=db, game_id=game_id)
    kept = _reviews.get((game.id, game.version))
    if kept is not None:
        return kept
    entries = history(db=db, game_id=game_id)
    stops = stops_of(game, entries)
    work = _Work(game, stops, solvers, time.monotonic() + wait)
    done = work.run()
    result = Review(
        game,
        tuple(stops),
        tuple(work.verdicts),
        tuple(work.turning),
        tuple(work.never),
        done,
        work.busy,
        longest_stretch(game, entries),
        bool(game.game.round_starts),
        game_turning=work.game_turning,
    )
    if done:
        _reviews.put((game.id, game.version), result)
    return result


class _Work:
    """One ask's share of a review: each round's binary search, as far as the verdicts
    known and the time left allow."""

    def __init__(
        self, game: Game, stops: Sequence[Stop], solvers: SolverPool, deadline: float
    ) -> None:
        self.game, self.stops, self.solvers, self.deadline = game, stops, solvers, deadline
        self.verdicts: list[StepVerdict] = ["pending"] * len(stops)
        self.turning: list[TurningPoint] = []
        self.never: list[int] = []
        self.busy = False
        self.game_turning: TurningPoint | None = None

    def run(self) -> bool:
        if len(self.stops) < 2:
            return True
        done = True
        start = 0
        for index in range(1, len(self.stops) + 1):
            if index == len(self.stops) or self.stops[index].round != self.stops[start].round:
                done = self._round(start, index - 1) and done
                start = index
        if done and self.game.game.round_starts:
            return self._whole_game()
        return done

    def _whole_game(self) -> bool:
        """The move after which the whole game could not be won, where the rounds' verdicts
        prove it: a position whose round can be cleared can win the game; one with no
        round left to start wins the game only by clearing its round. So the first lost
        position with no round left is lost for the game, and when the position before it
        could still clear its round, the move between them lost the game. Otherwise (the
        position before it lost its round with rounds still to start, or not sure) nothing
        is said: whether a new round could have saved it is not searched."""
        left = self.game.game.rounds_left
        lost = next(
            (
                index
                for index, stop in enumerate(self.stops)
                if self.verdicts[index] == "lost" and left(stop.position) == 0
            ),
            None,
        )
        if not lost or self.verdicts[lost - 1] != "winnable":
            return True
        before = self.known(lost - 1, line=True)
        if before is None:
            return False
        stop = self.stops[lost]
        self.game_turning = TurningPoint(lost, stop.step, stop.round, before.first, before.line)
        return True

    def _round(self, first: int, last: int) -> bool:
        """One round's verdicts (its stops ``first`` to ``last``): whether all are known."""
        end = self.known(last)
        if end is None:
            return False
        if end.verdict == "winnable":
            self._mark(first, last, "winnable")
            return True
        start = self.known(first)
        if start is None:
            return False
        if start.verdict == "lost":
            self._mark(first, last, "lost")
            self.never.append(self.stops[first].round)
            return True
        if end.verdict == "unsure" or start.verdict == "unsure":
            self._mark(first, last, "unsure")
            if start.verdict == "winnable":
                self.verdicts[first] = "winnable"
            if end.verdict == "lost":
                self.verdicts[last] = "lost"
            return True
        low, high = first, last  # winnable at low, lost at high
        unsure: set[int] = set()
        while high - low > 1:
            middle = self._candidate(low, high, unsure)
            if middle is None:
                break
            found = self.known(middle)
            if found is None:
                self._mark(first, low, "winnable")
                self._mark(high, last, "lost")
                return False
            if found.verdict == "winnable":
                low = middle
            elif found.verdict == "lost":
                high = middle
            else:
                unsure.add(middle)
        self._mark(first, low, "winnable")
        self._mark(high, last, "lost")
        if high - low > 1:
            self._mark(low + 1, high - 1, "unsure")
            return True
        before = self.known(low, line=True)
        if before is None:
            return False
        stop = self.stops[high]
        self.turning.append(TurningPoint(high, stop.step, stop.round, before.first, before.line))
        return True

    def _candidate(self, low: int, high: int, unsure: set[int]) -> int | None:
        """The position between ``low`` and ``high`` nearest the game's probing point
        (:attr:`~app.rules.kind.GameKind.probe_at`: their middle, for most) whose verdict is
        not already unsure."""
        middle = min(high - 1, max(low + 1, low + round(self.game.game.probe_at * (high - low))))
        for distance in range(high - low):
            for at in (middle - distance, middle + distance):
                if low < at < high and at not in unsure:
                    return at
        return None

    def _mark(self, first: int, last: int, verdict: StepVerdict) -> None:
        for index in range(first, last + 1):
            self.verdicts[index] = verdict

    def known(self, index: int, *, line: bool = False) -> Known | None:
        """The verdict at stop ``index`` (with ``line``: and the winning line's first move),
        from what is known, else from the pool within the time left; None: not yet."""
        stop = self.stops[index]
        game = self.game
        if stop.position.is_won():
            return Known("winnable")
        key = (game.kind, stop.text)
        found = _verdicts.get(key)
        if found is None and index == 0 and not line:
            proved = proofs.proofs(game.kind, game.variant).verdict(game.deal)
            if proved in ("solved", "unsolvable"):
                found = Known("winnable" if proved == "solved" else "lost")
        lineless = line and found is not None and found.verdict == "winnable" and not found.first
        if found is not None and not lineless:
            return found
        job = Job("answer", game.kind, stop.text)
        answer = self.solvers.known(job)
        if answer is None and not self.busy:
            left = self.deadline - time.monotonic()
            if left > 0:
                try:
                    answer = self.solvers.ask(job, left)
                except SolverBusy:
                    self.busy = True
        if not isinstance(answer, Answer):
            return None
        found = known_of(answer)
        _verdicts.put(key, found)
        return found


def known_of(answer: Answer) -> Known:
    if answer.verdict == "solved":
        return Known("winnable", answer.moves[0] if answer.moves else None, len(answer.moves))
    return Known("lost" if answer.verdict == "unsolvable" else "unsure")


def forget() -> None:
    """Let go of every kept review and verdict (tests, and a bench's cold start)."""
    _reviews.clear()
    _verdicts.clear()


class NotAStep(LookupError):
    """No position of the moves in force is at that step."""


def practice(*, db: Database, game_id: str, step: int, player_id: str) -> Game:
    """Try again from here: a new game of the same deal for ``player_id``, played up to
    the position after replay step ``step`` of the moves in force (the position before a
    turning point), counted as assisted (one hint). Raises :class:`NotAStep`."""
    from app.service.commands import CountHint, Play
    from app.service.play import apply, start

    game = load(db=db, game_id=game_id)
    stops = stops_of(game, history(db=db, game_id=game_id))
    upto = next((index for index, stop in enumerate(stops) if stop.step == step), None)
    if upto is None:
        raise NotAStep(f"no position of the moves in force at step {step}")
    new = start(db=db, player_id=player_id, kind=game.kind, variant=game.variant, deal=game.deal)
    for stop in stops[1 : upto + 1]:
        new = apply(
            db=db,
            game_id=new.id,
            action=Play(stop.notation),
            version=new.version,
            player_id=player_id,
        ).game
        # The automatic moves the game made then, where the player's own settings made fewer.
        while new.position.cards_left > stop.position.cards_left:
            home = new.position.automatic_move("all")
            if home is None:
                break
            new = apply(
                db=db,
                game_id=new.id,
                action=Play(home.notation),
                version=new.version,
                player_id=player_id,
            ).game
    return apply(db=db, game_id=new.id, action=CountHint(), version=None).game
