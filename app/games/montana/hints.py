"""Montana's hints and verdicts, as one solver process keeps them.

A hint never plays itself. When the round's search finishes in time the move starts the
line that ends the round with the most cards in place (the clearing line when there is
one); when the budget runs out first the hint says so, offers the best move found so far,
and keeps the search to carry on: under the position its move leads to (the player played
it) and where it was asked (the player asks again).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

from app.caches import Kept, text_size
from app.games.montana import solver
from app.games.montana.rules import MontanaPosition, parse
from app.rules.cards import Card
from app.rules.protocol import Answer, Hint, Position
from app.solve.recent import Recent

LINES_KEPT_BYTES: Final = 16 << 20
"""Positions remembered from finished searches (a round's line is ~100 moves; a position
and its hint ~0.4 kB: some 40,000)."""
SEARCHES_KEPT: Final = 2
"""Unfinished searches kept to carry on (each holds its seen positions: up to
HINT_MAX_NODES in Python, what the process can spare compiled). Counted, not weighed:
a search is not a result but work under way, and what it holds is the solver process's
memory bound's to watch (:mod:`app.service.solvers`)."""
ANSWERS_KEPT_BYTES: Final = 4 << 20
ASKED_KEPT_BYTES: Final = 64 << 10


Round = tuple[str, int, int, tuple[Card, ...]]
"""A round of a game: its variant, deal, redeals done before it and the aces heading its
rows."""


def _round_of(position: MontanaPosition) -> Round:
    return position.variant.name, position.deal, position.redeals_done, position.aces


def _hint_size(key: str, hint: Hint) -> int:
    return text_size(key, hint.move or "") + 64


def _answer_size(key: tuple[str, int], answer: Answer) -> int:
    return text_size(key[0], *answer.moves) + 96


class MontanaSearches:
    """Every search a Montana hint or verdict made in this process, kept to reuse."""

    @staticmethod
    def engine() -> str:
        """Which engine searches (``solitaire doctor``, the start-up log)."""
        if solver.ENGINE == "compiled":
            return "the compiled round search (app/games/montana/_search.c)"
        return "the Python round search"

    def __init__(
        self, new_search: Callable[[MontanaPosition], solver.Search] = solver.new_search
    ) -> None:
        self.new_search = new_search
        """How a search starts: by the engine that runs here, unless a bench asks for one."""
        self.lines = Kept[str, Hint]("montana lines", LINES_KEPT_BYTES, _hint_size)
        """Every position along a line a finished search proved best: from each, the rest
        of the line is still the best there is, so following the hint costs one search a
        round."""
        self.searches = Recent[solver.Search](SEARCHES_KEPT)
        """Searches still going, each under the position its suggested move leads to."""
        self.asked = Kept[str, str]("montana asked", ASKED_KEPT_BYTES, text_size)
        """Where a hint left its unfinished search waiting, by the position it was asked
        at: asking again without moving carries the same search on."""
        self.answers = Kept[tuple[str, int], Answer](
            "montana answers", ANSWERS_KEPT_BYTES, _answer_size
        )
        self.verdicts: tuple[Round, solver.Search] | None = None
        """The last verdict's search, with the positions its searches proved lost (each
        seen by one that finished without a clear): the next verdict asked in the same
        round (a review's next probe) restarts it and skips them all instead of searching
        them again."""

    def answer(self, position: Position, budget_ms: int) -> Answer:
        """Can this round be cleared without another redeal? The line is the best found."""
        key = (position.to_text(), budget_ms)
        found = self.answers.get(key)
        if found is None:
            found = self.answers.put(key, self._search(key[0], budget_ms))
        return found

    def _search(self, text: str, budget_ms: int) -> Answer:
        position = parse(text)
        round_ = _round_of(position)
        kept = self.verdicts if self.verdicts is not None and self.verdicts[0] == round_ else None
        self.verdicts = None
        began = time.perf_counter()
        search = self._restarted(kept[1], position) if kept is not None else None
        search = search or self.new_search(position)
        result = search.run(max_seconds=budget_ms / 1000)
        left = budget_ms / 1000 - (time.perf_counter() - began)
        if kept is not None and result.verdict == "unknown" and left > 0:
            # Stopped short of its budget (the lost positions kept left no room to grow):
            # a search of its own has the process's room to itself.
            search = self.new_search(position)
            result = search.run(max_seconds=left)
        self.verdicts = (round_, search)
        if result.verdict != "unknown" and result.moves:
            self._remember_line(position, result.moves)
        return result

    @staticmethod
    def _restarted(search: solver.Search, position: MontanaPosition) -> solver.Search | None:
        try:
            return search.restart(position)
        except MemoryError:  # no room to drop the positions not proved lost
            return None

    def hint(self, position: Position, budget_ms: int) -> Hint:
        """From a proved line, else from a search of the round (carried on if still going)."""
        assert isinstance(position, MontanaPosition)
        began = time.perf_counter()
        text = position.to_text()
        known = self.lines.get(text)
        if known is not None:
            return known
        search = self.searches.pop(text)
        if search is not None:
            search.advance()  # the player played the move it suggested: carry on below it
        else:
            search = self._asked_before(position, text)  # asked again here: carry on
        self.searches.trim(SEARCHES_KEPT - 1)  # room for this one, made within the budget
        if search is None or search.nodes >= solver.HINT_MAX_NODES:
            # A search that has had its share starts over. Letting go of the old one's keys
            # takes ~0.1 s for 2.5 million: that time comes out of this hint's budget.
            search = self.new_search(position)
        seconds = budget_ms / 1000 - (time.perf_counter() - began)
        left = solver.HINT_MAX_NODES - search.nodes
        result = search.run(max_seconds=seconds, max_nodes=left)
        if result.verdict == "unknown" and result.moves:
            first = result.moves[0]
            after = position.play(position.parse_action(first)).to_text()
            self.searches.put([(after, search)])
            self.asked.put(text, after)
            return Hint(first, False)
        # A finished search: sure, unless it carried on from positions it had let go of.
        sure = result.verdict == "solved" or (
            result.verdict == "unsolvable" and not search.advanced
        )
        if result.moves:
            if sure:
                self._remember_line(position, result.moves)
            return Hint(result.moves[0], sure)
        if position.can_redeal():
            return Hint("redeal", sure)
        legal = position.legal_moves()
        return Hint(legal[0].notation if legal else None, sure)

    def forget(self) -> None:
        self.verdicts = None
        self.answers.clear()
        self.lines.clear()
        self.searches.trim(0)
        self.asked.clear()

    def _asked_before(self, position: MontanaPosition, text: str) -> solver.Search | None:
        """The unfinished search a hint here left waiting, if it is still waiting unmoved."""
        after = self.asked.get(text)
        if after is None:
            return None
        waiting = self.searches.get(after)
        if waiting is None or not waiting.is_at(position):
            return None  # let go of, or moved on along its move since
        return self.searches.pop(after)

    def _remember_line(self, position: MontanaPosition, line: tuple[str, ...]) -> None:
        for move in line:
            self.lines.put(position.to_text(), Hint(move, True))
            position = position.play(position.parse_action(move))
