"""Montana (Gaps): the 52-cell grid, its rules, its round search and its view."""

from __future__ import annotations

from typing import Final

from app.games.montana import explain, hints, rules, view, words
from app.rules.kind import GameKind, Presenter
from app.rules.protocol import Action


def _redeal(position: rules.MontanaPosition) -> tuple[Action, ...]:
    return (rules.REDEAL,) if position.can_redeal() else ()


def _redeals_left(position: rules.MontanaPosition) -> int:
    return position.redeals_left


KIND: Final[GameKind[rules.MontanaPosition, view.MontanaBoard]] = GameKind(
    rules=rules.RULES,
    searches=hints.MontanaSearches,
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
        board_cells=view.cells,
        cell_template="montana/_cell.html",
        why=view.why,
        words_only=frozenset({rules.REDEAL.notation}),
        explain=explain.explain,
    ),
    max_score=rules.IN_PLACE_MAX,
    other_actions=_redeal,
    keeps_unsure_hints=False,
    proofs_cover_the_game=False,
    round_starts=frozenset({rules.REDEAL.notation}),
    rounds_left=_redeals_left,
    probe_at=0.75,
)
