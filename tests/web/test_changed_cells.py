"""A move's answer keeps the board the player sees and sends only the cells (Montana) or
places (FreeCell) that changed: played like a browser does (the board's fields posted, each
answer applied by id, as htmx does), the board is always the one a whole render draws."""

from __future__ import annotations

import random
import re

from fastapi.testclient import TestClient

from app.games.freecell import rules as freecell
from app.games.montana import rules as montana
from tests.web import helpers
from tests.web.helpers import HX

CELL = re.compile(
    r'<div role="gridcell" id="(c-[A-D]\d+)".*?</div>'  # a Montana cell
    r'|<(button|div) id="(p-\w)".*?</(?:button|div)>',  # a FreeCell place (no nested ones)
    re.S,
)


def cells_in(html: str) -> dict[str, str]:
    return {(match[1] or match[3]): match[0] for match in CELL.finditer(html)}


OOB = ' hx-swap-oob="true"'
FIELD = re.compile(r'<input type="hidden"(?: id="[\w-]+")? name="(\w+)" value="([^"]*)"')


class Page:
    """The board as a browser holds it: its cells by id and the fields its form posts."""

    def __init__(self, client: TestClient, game_id: str, size: int = 52) -> None:
        self.client, self.game_id, self.size = client, game_id, size
        self.cells: dict[str, str] = {}
        self.fields: dict[str, str] = {}
        self.full_answers = self.small_answers = 0
        self.take(client.get(f"/games/{game_id}", headers=HX).text)

    def take(self, html: str) -> None:
        """Apply an answer as htmx does: a board drawn whole replaces the one held; the
        cells sent out of band replace theirs; a kept board (hx-preserve) stays."""
        if '<form id="board" hx-preserve="true">' in html:
            self.small_answers += 1
            board, rest = html.split("</section>", 1)
            assert "data-cell" not in board, "the kept board's cells are not sent again"
            sent = {name: cell.replace(OOB, "") for name, cell in cells_in(rest).items()}
            assert sent and set(sent) <= set(self.cells)
            assert all(OOB in cell for cell in cells_in(rest).values())
            self.cells.update(sent)
            version = re.search(r'id="board-version" name="version" value="(\d+)"', rest)
            assert version, "the version the next move is made on"
            self.fields["version"] = version[1]
            return
        self.full_answers += 1
        start = html.index('<form id="board"')
        board = html[start : html.index("</form>", start)]
        self.cells = cells_in(board)
        assert len(self.cells) == self.size
        self.fields = dict(FIELD.findall(board))

    def post(self, action: str) -> None:
        response = self.client.post(
            f"/games/{self.game_id}/actions", data={**self.fields, "action": action}, headers=HX
        )
        assert response.status_code == 200, response.text[:300]
        self.take(response.text)

    def check(self) -> None:
        """What the page holds is what a whole render of the game draws now."""
        whole = Page(self.client, self.game_id, self.size)
        assert self.cells == whole.cells
        assert self.fields["version"] == whole.fields["version"]


def test_moves_undos_and_redeals_send_only_what_changed(client: TestClient) -> None:
    game_id = helpers.start(client, "montana", "3")
    page = Page(client, game_id)
    assert page.fields.get("shown") == "en", "a plain board says so in what it posts"
    rng = random.Random(3)
    for step in range(60):
        position = montana.parse(client.get(f"/games/{game_id}/position").text)
        moves = position.legal_moves()
        if step % 7 == 6 and int(page.fields["version"]) > 0:
            page.post("undo")
        elif moves:
            page.post(rng.choice(moves).notation)
        elif position.can_redeal():
            page.post("redeal")
        else:
            break
        page.check()
    assert page.small_answers > 30, "most answers send the cells that changed only"
    assert page.full_answers >= 1


def test_a_board_with_a_hint_lit_or_a_two_being_chosen_is_sent_whole(
    client: TestClient,
) -> None:
    game_id = helpers.start(client, "montana", "1")
    hinted = client.post(f"/games/{game_id}/hint", headers=HX).text
    if re.search(r'class="[^"]*\bhint\b', hinted):  # a cell lit (not "busy", not "thinking")
        assert 'name="shown"' not in hinted, "a lit board does not say it is plain"
    picking = client.get(f"/games/{game_id}?pick=A1", headers=HX).text
    assert 'name="shown"' not in picking
    # A post from such a board (no "shown") gets the whole board back.
    page = Page(client, game_id)
    page.fields.pop("shown")
    move = montana.parse(client.get(f"/games/{game_id}/position").text).legal_moves()[0]
    page.post(move.notation)
    assert page.full_answers == 2 and page.small_answers == 0
    page.check()


def test_a_board_drawn_in_another_language_is_sent_whole(client: TestClient) -> None:
    game_id = helpers.start(client, "montana", "1")
    page = Page(client, game_id)
    page.fields["shown"] = "ar"  # the page was drawn in Arabic; this answer is in English
    move = montana.parse(client.get(f"/games/{game_id}/position").text).legal_moves()[0]
    page.post(move.notation)
    assert page.full_answers == 2
    page.check()


def test_without_javascript_a_move_still_answers_with_the_whole_page(
    client: TestClient,
) -> None:
    game_id = helpers.start(client, "montana", "1")
    move = montana.parse(client.get(f"/games/{game_id}/position").text).legal_moves()[0]
    posted = client.post(
        f"/games/{game_id}/actions",
        data={"action": move.notation, "version": "0", "shown": "en"},
        follow_redirects=False,
    )
    assert posted.status_code == 303
    page = client.get(posted.headers["location"]).text
    assert page.count('role="gridcell"') == 52 and "hx-preserve" not in page


def test_freecell_moves_and_undos_send_only_the_places_that_changed(client: TestClient) -> None:
    game_id = helpers.start(client, "freecell", "5")
    page = Page(client, game_id, size=16)  # 4 free cells, 4 foundations, 8 columns
    assert page.fields.get("shown") == "en"
    rng = random.Random(5)
    for step in range(60):
        position = freecell.parse(client.get(f"/games/{game_id}/position").text)
        moves = position.legal_moves()
        # Cards home first, then moves between columns (random ones fill the free cells).
        useful = [m for m in moves if m.target == "h"] or [
            m for m in moves if m.target not in freecell.CELL_NAMES
        ]
        if (step % 6 == 5 or not moves) and int(page.fields["version"]) > 0:
            page.post("undo")
        elif moves:
            page.post(rng.choice(useful or moves).notation)
        else:
            break
        page.check()
    assert page.small_answers > 30, (page.small_answers, page.full_answers)
    # The table says whether a double-click sends cards home, outside the board it keeps.
    assert "data-can-go-home" in client.get(f"/games/{game_id}", headers=HX).text


def test_a_card_to_a_free_cell_sends_its_two_places_only(client: TestClient) -> None:
    """Where a double-click sends a column's card when it cannot go home (the leftmost
    empty free cell) is found by the script on the table, not written on every column: a
    free cell filling up changes no other place."""
    game_id = helpers.start(client, "freecell", "1")
    page = Page(client, game_id, size=16)
    page.post("8a")
    answer = client.post(
        f"/games/{game_id}/actions",
        data={"action": "7b", "version": page.fields["version"], "shown": "en"},
        headers=HX,
    ).text
    assert sorted(cells_in(answer.split("</section>", 1)[1])) == ["p-7", "p-b"]
    assert "data-quick" not in answer


def test_freecell_cards_held_are_not_a_plain_table(client: TestClient) -> None:
    game_id = helpers.start(client, "freecell", "5")
    holding = client.get(f"/games/{game_id}?sel=1", headers=HX).text
    assert 'name="held"' in holding and 'name="shown"' not in holding
