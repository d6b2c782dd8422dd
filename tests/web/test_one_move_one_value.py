"""A move is one value from the click to the store: its text is read once where it comes
in (a posted ``action``), a drop's places are made into the move with no text at all, and
nothing after that (the answer's words, the count of cards moved) reads it again."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.games.freecell import rules as freecell
from app.games.montana import rules as montana
from tests.web import helpers
from tests.web.helpers import HX


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every move text an engine reads, in order."""
    seen: list[str] = []
    for position_class in (freecell.FreeCellPosition, montana.MontanaPosition):
        original = position_class.parse_action

        def counted(self: object, text: str, _original: object = original) -> object:
            seen.append(text)
            return _original(self, text)  # type: ignore[operator]

        monkeypatch.setattr(position_class, "parse_action", counted)
    return seen


def test_a_drop_is_made_into_its_move_without_reading_any_text(
    client: TestClient, reads: list[str]
) -> None:
    game_id = helpers.start(client, "freecell", "1")
    response = client.post(
        f"/games/{game_id}/actions",
        data={"source": "1", "target": "a", "held": "1", "version": "0"},
        headers=HX,
    )
    assert response.status_code == 200
    assert "from column 1 to free cell a" in response.text  # the answer words the move
    assert reads == []


@pytest.mark.parametrize(("kind", "action"), [("freecell", "1a"), ("montana", "6S A13")])
def test_a_posted_move_is_read_once(
    client: TestClient, reads: list[str], kind: str, action: str
) -> None:
    game_id = helpers.start(client, kind, "1")
    response = helpers.act(client, game_id, action, 0, **HX)
    assert response.status_code == 200
    assert reads == [action]


def test_a_replay_reads_each_step_once(client: TestClient, reads: list[str]) -> None:
    game_id = helpers.start(client, "montana", "1")
    helpers.act(client, game_id, "6S A13", 0)
    reads.clear()
    page = client.get(f"/games/{game_id}/replay?step=1")
    assert page.status_code == 200 and "6♠" in page.text
    assert reads.count("6S A13") <= 2  # played once to the step, worded from that reading
