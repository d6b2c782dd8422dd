"""A loss stays on the record, Redo brings undone moves back, verdicts stay with the game
that asked (the service and the statistics)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app import service, stats
from app.games.freecell import rules as freecell
from app.games.montana import rules as montana
from app.rules.history import entry, positions, redoable, replay
from app.rules.protocol import IllegalMoveError
from app.store import Database

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
MONTANA = stats.Group("montana", "expert")


@pytest.fixture
def player(db: Database) -> str:
    return service.ensure_player(db=db, player_id=None)


def new(db: Database, player: str, deal: int = 1) -> service.Game:
    return service.start(db=db, player_id=player, kind="montana", deal=deal, now=T0)


def rows(db: Database, game_id: str) -> list[tuple[str, str]]:
    return [(e.kind, e.notation) for e in service.history(db=db, game_id=game_id)]


def play_to_a_loss(db: Database, game: service.Game) -> service.Game:
    """The first legal move each time, a redeal when stuck, until no redeal is left."""
    current = game
    while not current.is_over:
        legal = current.position.legal_moves()
        action = legal[0].notation if legal else "redeal"
        current = service.act(db=db, game_id=game.id, action=action, version=current.version)
    return current


def test_a_loss_undone_stays_a_loss_on_the_record(db: Database, player: str) -> None:
    game = new(db, player)
    lost = play_to_a_loss(db, game)
    assert (lost.status, lost.result) == ("lost", "lost")
    before = stats.group_stats(db=db, group=MONTANA, player_id=player)
    assert (before.played, before.lost, before.unfinished) == (1, 1, 0)
    back = service.act(db=db, game_id=game.id, action="undo", version=lost.version)
    assert (back.status, back.result, back.finished_at) == ("playing", "lost", lost.finished_at)
    after = stats.group_stats(db=db, group=MONTANA, player_id=player)
    assert (after.played, after.won, after.lost, after.unfinished) == (1, 0, 1, 0)
    assert after.win_percent == 0
    # Undoing all the way to the deal keeps the loss too.
    current = back
    while current.can_undo:
        current = service.act(db=db, game_id=game.id, action="undo", version=current.version)
    assert stats.group_stats(db=db, group=MONTANA, player_id=player).lost == 1
    assert service.verify(db=db) == (1, [])


def test_an_unfinished_game_counts_as_not_won(db: Database, player: str) -> None:
    opened = new(db, player, deal=2)  # no move: not counted at all
    begun = new(db, player, deal=3)
    service.act(db=db, game_id=begun.id, action=begun.position.legal_moves()[0].notation, version=0)
    result = stats.group_stats(db=db, group=MONTANA, player_id=player)
    assert (result.played, result.won, result.lost, result.unfinished) == (0, 0, 0, 1)
    assert result.win_percent == 0
    assert opened.version == 0
    service.act(db=db, game_id=begun.id, action="resign", version=1)
    result = stats.group_stats(db=db, group=MONTANA, player_id=player)
    assert (result.played, result.lost, result.unfinished) == (1, 1, 0)


def test_redo_brings_undone_moves_back_in_order(db: Database, player: str) -> None:
    game = new(db, player)
    service.act(db=db, game_id=game.id, action="5H C4", version=0)
    dealt = service.act(db=db, game_id=game.id, action="redeal", version=1)
    third = dealt.position.legal_moves()[0].notation
    two = service.act(db=db, game_id=game.id, action=third, version=2)
    service.act(db=db, game_id=game.id, action="undo", version=3)
    service.act(db=db, game_id=game.id, action="undo", version=4)
    one = service.act(db=db, game_id=game.id, action="undo", version=5)
    assert (one.redo_count, one.can_redo, one.moves_count) == (3, True, 0)
    again = service.act(db=db, game_id=game.id, action="redo", version=6)
    assert again.position == montana.new_game(1).play(montana.MontanaMove.from_text("5H C4"))
    assert (again.redo_count, again.moves_count) == (2, 1)
    service.act(db=db, game_id=game.id, action="redo", version=7)  # the redeal, same cards
    last = service.act(db=db, game_id=game.id, action="redo", version=8)
    assert last.position == two.position
    assert (last.redo_count, last.can_redo, last.moves_count) == (0, False, 3)
    with pytest.raises(IllegalMoveError, match="nothing to redo"):
        service.act(db=db, game_id=game.id, action="redo", version=9)
    assert rows(db, game.id)[-3:] == [("redo", "5H C4"), ("redo", "redeal"), ("redo", third)]
    # Undo takes a redo back like any move; the replay and verify agree with the store.
    undone = service.act(db=db, game_id=game.id, action="undo", version=9)
    assert undone.redo_count == 1
    history = [entry(kind, notation) for kind, notation in rows(db, game.id)]
    assert replay(montana.RULES, 1, "expert", history) == undone.position
    assert positions(montana.RULES, 1, "expert", history)[-1] == undone.position
    assert service.verify(db=db) == (1, [])


def test_a_new_move_ends_what_redo_can_bring_back(db: Database, player: str) -> None:
    game = new(db, player)
    service.act(db=db, game_id=game.id, action="5H C4", version=0)
    undone = service.act(db=db, game_id=game.id, action="undo", version=1)
    assert undone.can_redo
    other = service.act(db=db, game_id=game.id, action="6S A13", version=2)
    assert (other.redo_count, other.can_redo) == (0, False)
    with pytest.raises(IllegalMoveError, match="nothing to redo"):
        service.act(db=db, game_id=game.id, action="redo", version=3)
    assert redoable([entry(k, n) for k, n in rows(db, game.id)]) == []


def test_redo_brings_back_the_automatic_moves_with_the_move(db: Database, player: str) -> None:
    """A FreeCell move after which cards go home by themselves, undone and redone."""
    found = next(
        (deal, move.notation)
        for deal in range(1, 200)
        for move in freecell.new_game(deal).legal_moves()
        if freecell.new_game(deal).play(move).automatic_move() is not None
    )
    deal, notation = found
    game = service.start(db=db, player_id=player, kind="freecell", deal=deal, now=T0)
    moved = service.act(db=db, game_id=game.id, action=notation, version=0)
    assert moved.version > 1, "the move and the cards that went home after it"
    undone = service.act(db=db, game_id=game.id, action="undo", version=moved.version)
    redone = service.act(db=db, game_id=game.id, action="redo", version=undone.version)
    assert redone.position == moved.position
    assert redone.version - undone.version == moved.version
    kinds = [kind for kind, _ in rows(db, game.id)[undone.version :]]
    assert kinds[0] == "redo" and set(kinds[1:]) == {"auto"}
    assert service.verify(db=db) == (1, [])


def test_the_clock_starts_at_the_first_move(db: Database, player: str) -> None:
    game = new(db, player)
    first = service.act(
        db=db, game_id=game.id, action="5H C4", version=0, now=T0 + timedelta(seconds=50)
    )
    assert first.play_ms == 0
    second = service.act(
        db=db, game_id=game.id, action="undo", version=1, now=T0 + timedelta(seconds=57)
    )
    assert second.play_ms == 7000
