"""FreeCell: eight columns, four free cells, four foundations; its rules, solver and view."""

from __future__ import annotations

from typing import Final

from app.games.freecell import explain, hints, rules, solver, view, words
from app.rules.kind import GameKind, Presenter, Sweep

DEMO_NODES: Final = 5_000


def _quick_line(position: rules.FreeCellPosition) -> tuple[str, ...] | None:
    result = solver.solve(position, max_nodes=DEMO_NODES)
    return result.moves if result.verdict == "solved" else None


KIND: Final[GameKind[rules.FreeCellPosition, view.FreeCellBoard]] = GameKind(
    rules=rules.RULES,
    searches=hints.FreeCellSearches,
    presenter=Presenter(
        name=words.name,
        variant_name=words.variant_name,
        board=view.board,
        describe=words.describe,
        standing=words.standing,
        progress=words.progress,
        hinted_places=view.hinted_places,
        moved_to=view.moved_to,
        unsure_hint=words.unsure_hint,
        verdict=words.verdict,
        solution=words.solution,
        refusals=words.REFUSALS,
        board_cells=view.places,
        cell_template="freecell/_place.html",
        fewer_moved=words.fewer_moved,
        held=view.held,
        explain=explain.explain,
    ),
    quick_line=_quick_line,
    uses_auto_moves=True,
    sweeps={"all-home": Sweep(rules.all_home, words.went_home)},
    shortest_line=hints.shortest_answer,
)
