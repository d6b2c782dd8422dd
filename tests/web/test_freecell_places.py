"""FreeCell's places as the board keeps their markup: plain, hashable facts that say all the
markup depends on, so a kept place's markup is what drawing it again would make."""

from __future__ import annotations

import pytest

from app import i18n
from app.games.freecell import rules as freecell
from app.games.freecell import view
from app.web.templating import make_templates

GAME_URL = "/games/the-game"
PICKS = (None, "1", "3:1", "b", "zz")


def positions() -> list[freecell.FreeCellPosition]:
    """A deal, then a few moves on (free cells taken, cards home, runs to pick up)."""
    position = freecell.new_game(1)
    seen = [position]
    for turn in range(12):
        moves = position.legal_moves()
        home = [move for move in moves if move.target == freecell.HOME]
        along = [move for move in moves if move.target in freecell.COLUMN_NAMES]
        choice = home or along or list(moves)
        if not choice:
            break
        position = position.play(choice[turn % len(choice)])
        seen.append(position)
    return seen


def boards() -> list[view.FreeCellBoard]:
    made = []
    for position in positions():
        made.append(view.board(position, playable=False))
        made.extend(view.board(position, pick=pick) for pick in PICKS)
    return made


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_a_place_says_when_its_markup_holds_the_games_address(locale: i18n.LocaleCode) -> None:
    macro = make_templates().env.get_template("freecell/_place.html").module.cell  # type: ignore[attr-defined]
    with i18n.use_locale(locale):
        for board in boards():
            for place in (*board.cells, *board.foundations, *board.columns):
                markup = str(macro(place, False, GAME_URL))
                assert place.links == (GAME_URL in markup), (place, markup)
                assert " hint" in str(macro(place, True, GAME_URL))
                assert " hint" not in markup


def test_equal_facts_are_equal_places() -> None:
    first, again = boards(), boards()
    assert first == again
    for board, same in zip(first, again, strict=True):
        assert hash(board.columns) == hash(same.columns)
        assert hash(board.cells) == hash(same.cells)
        assert hash(board.foundations) == hash(same.foundations)


def test_a_hint_lights_places_by_their_names() -> None:
    position = freecell.new_game(1)
    board = view.board(position)
    names = {place.name for place in (*board.cells, *board.foundations, *board.columns)}
    for move in position.legal_moves():
        assert view.hinted_places(position, move) <= names
