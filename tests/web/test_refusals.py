"""Every refusal the engine can raise has a code, and every code has words in each language."""

from __future__ import annotations

import ast

import pytest

from app import i18n
from app.config import ROOT
from app.games.freecell import rules as freecell
from app.games.montana import rules as montana
from app.rules.protocol import IllegalMoveError, InvalidMoveError
from app.web.refusals import WORDS, refusal

REFUSALS = {"InvalidMoveError", "IllegalMoveError"}


def _raised_codes() -> dict[str, str]:
    """Each refusal raised in app/rules and the games' rules: its code (or "" when it has
    none), by place."""
    codes: dict[str, str] = {}
    engine = [*(ROOT / "app" / "rules").glob("*.py"), *(ROOT / "app" / "games").glob("*/rules.py")]
    for path in sorted(engine):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id not in REFUSALS:
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            code = node.args[1] if len(node.args) > 1 else None
            if isinstance(code, ast.Constant) and isinstance(code.value, str):
                codes[where] = code.value
            elif isinstance(code, ast.IfExp | ast.Name | ast.Attribute):
                codes[where] = "<computed>"  # checked by playing below
            else:
                codes[where] = ""
    return codes


def test_every_refusal_in_the_engine_has_a_worded_code() -> None:
    codes = _raised_codes()
    assert codes, "the engine raises refusals"
    missing = [where for where, code in codes.items() if not code]
    assert not missing, f"refusals without a code: {missing}"
    unworded = {code for code in codes.values() if code != "<computed>"} - set(WORDS)
    assert not unworded, f"codes without words in app/web/refusals.py: {unworded}"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("13", "freecell.*"),  # some card of column 1 that does not fit on column 3
        ("ab", "freecell.cell_to_cell"),
        ("zz", "freecell.not_a_move"),
        ("a1", "freecell.empty_cell"),
    ],
)
def test_freecell_refusals_carry_their_code(text: str, code: str) -> None:
    position = freecell.RULES.new_game(1, "standard")
    with pytest.raises((IllegalMoveError, InvalidMoveError)) as caught:
        position.play(position.parse_action(text))
    error = caught.value
    if code == "freecell.*":
        assert error.code.startswith("freecell."), error.code
    else:
        assert error.code == code
    with i18n.use_locale("qps"):
        words = refusal(error)
    assert words.startswith("⟦"), words


def test_montana_wrong_card_names_cards_and_cells_isolated() -> None:
    position = montana.RULES.new_game(1, "expert")
    move = next(iter(position.legal_moves()))
    gap = move.notation.split()[1]
    wrong = next(
        card
        for card in (c.text for c in position.cells if c is not None)
        if f"{card} {gap}" not in {m.notation for m in position.legal_moves()}
        and not card.startswith("2")
    )
    with pytest.raises(IllegalMoveError) as caught:
        position.play(position.parse_action(f"{wrong} {gap}"))
    with i18n.use_locale("ar"):
        words = refusal(caught.value)
    assert f"\u2068{gap}\u2069" in words, words
    with i18n.use_locale("en"):
        words = refusal(caught.value)
    assert "\u2068" not in words and gap in words, words
    assert words.endswith("."), words
