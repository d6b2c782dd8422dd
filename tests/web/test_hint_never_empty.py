"""A hint is never empty: while the solver's search is not done, the hint names a move
to play, marked not sure; with no move at all it says so plainly."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from fastapi.testclient import TestClient

from app.games.freecell import rules as freecell
from app.games.montana import rules as montana
from app.rules.protocol import Hint
from app.service.help import provisional_hint
from tests.web.helpers import HX, start


def test_a_card_that_can_go_home_comes_first() -> None:
    position = freecell.new_game(1).play(freecell.new_game(1).parse_action("6a"))
    position = position.play(position.parse_action("6b"))  # A♣ at the bottom of column 6
    hint = provisional_hint(position)
    assert hint.sure is False
    assert hint.move is not None and hint.move.endswith("h")


def test_else_a_legal_move() -> None:
    position = montana.new_game(1)
    hint = provisional_hint(position)
    assert hint == Hint(position.legal_moves()[0].notation, False)


@dataclass
class Stuck:
    """A position with no move and no redeal."""

    def automatic_move(self, mode: str = "safe") -> None:
        return None

    def legal_moves(self) -> tuple[()]:
        return ()

    def can_redeal(self) -> bool:
        return False


def test_no_move_at_all_is_said_plainly() -> None:
    assert provisional_hint(Stuck()) == Hint(None, True)  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["freecell", "montana"])
def test_the_page_shows_the_provisional_move(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    game_id = start(client, kind)
    solvers = client.app.state.solvers  # type: ignore[attr-defined]
    monkeypatch.setattr(solvers, "ask", lambda job, wait: None)
    page = client.post(f"/games/{game_id}/hint", headers=HX)
    assert page.status_code == 200
    assert "Still thinking: the best move found so far is" in page.text
    assert "the solver is working on it" not in page.text
    assert client.get(f"/games/{game_id}/history").text == ""
