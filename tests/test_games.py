"""The service: the one place that changes a game."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app import service
from app.games.montana import rules as montana
from app.rules.history import entry, replay
from app.rules.protocol import IllegalMoveError, InvalidMoveError
from app.store import Database

NEARLY_WON = """\
Deal: 5
Redeals-left: 0
Redeals-done: 2
2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC --
2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD --
2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH --
2S 3S 4S 5S 6S 7S 8S 9S TS JS QS -- KS
"""

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def player(db: Database) -> str:
    return service.ensure_player(db=db, player_id=None)


def new(db: Database, player: str, deal: int = 1, variant: str = "expert") -> service.Game:
    return service.start(
        db=db, player_id=player, kind="montana", variant=variant, deal=deal, now=T0
    )


def stored_rows(db: Database, game_id: str) -> list[tuple[str, str]]:
    return [(e.kind, e.notation) for e in service.history(db=db, game_id=game_id)]


def test_start_deals_and_stores_the_game(db: Database, player: str) -> None:
    game = new(db, player)
    assert len(game.id) == 24  # 144 random bits
    assert game.position == montana.new_game(1)
    loaded = service.load(db=db, game_id=game.id)
    assert (loaded.status, loaded.version, loaded.score, loaded.moves_count) == ("playing", 0, 0, 0)
    assert loaded.player_id == player


def test_random_deal_and_bad_choices(db: Database, player: str) -> None:
    game = service.start(db=db, player_id=player, kind="montana")
    assert 1 <= game.deal <= montana.MAX_DEAL
    assert game.variant == "expert"
    with pytest.raises(service.UnknownGameKind, match="unknown game 'chess'"):
        service.start(db=db, player_id=player, kind="chess")
    with pytest.raises(service.UnknownGameKind, match="no variant 'hard'"):
        service.start(db=db, player_id=player, kind="montana", variant="hard")
    with pytest.raises(service.UnknownGameKind, match="from 1 to 1,000,000"):
        service.start(db=db, player_id=player, kind="montana", deal=1_000_001)


def test_a_move_is_stored_with_its_history_row(db: Database, player: str) -> None:
    game = new(db, player)
    after = service.act(db=db, game_id=game.id, action="5H C4", version=0, now=T0)
    assert after.version == 1
    assert after.moves_count == 1
    assert service.load(db=db, game_id=game.id).position == after.position
    assert stored_rows(db, game.id) == [("move", "5H C4")]


def test_stale_version_is_refused_and_nothing_changes(db: Database, player: str) -> None:
    game = new(db, player)
    service.act(db=db, game_id=game.id, action="5H C4", version=0)
    with pytest.raises(service.StaleVersion) as caught:
        service.act(db=db, game_id=game.id, action="6S A13", version=0)
    assert caught.value.game.version == 1
    assert stored_rows(db, game.id) == [("move", "5H C4")]


@pytest.mark.parametrize(
    ("action", "error"),
    [("7S A13", IllegalMoveError), ("8X B7", InvalidMoveError), ("undo", IllegalMoveError)],
)
def test_illegal_actions_store_nothing(
    db: Database, player: str, action: str, error: type[Exception]
) -> None:
    game = new(db, player)
    with pytest.raises(error) as refused:
        service.act(db=db, game_id=game.id, action=action, version=0)
    assert service.load(db=db, game_id=game.id).version == 0
    assert stored_rows(db, game.id) == []
    # The refusal carries the game as it stands, so the page saying why reads nothing more.
    shown = getattr(refused.value, "game", None)
    assert isinstance(shown, service.Game)
    assert (shown.id, shown.version, shown.position) == (game.id, 0, game.position)


def test_unknown_game(db: Database) -> None:
    with pytest.raises(service.GameNotFound):
        service.load(db=db, game_id="nope")
    with pytest.raises(service.GameNotFound):
        service.act(db=db, game_id="x" * 500, action="undo", version=0)


def test_undo_is_an_action_and_restores_the_position(db: Database, player: str) -> None:
    game = new(db, player)
    service.act(db=db, game_id=game.id, action="5H C4", version=0)
    service.act(db=db, game_id=game.id, action="redeal", version=1)
    undone = service.act(db=db, game_id=game.id, action="undo", version=2)
    assert undone.position == montana.new_game(1).play(montana.MontanaMove.from_text("5H C4"))
    assert undone.moves_count == 1
    undone = service.act(db=db, game_id=game.id, action="undo", version=3)
    assert undone.position == montana.new_game(1)
    assert not undone.can_undo
    assert stored_rows(db, game.id) == [
        ("move", "5H C4"),
        ("move", "redeal"),
        ("undo", "undo"),
        ("undo", "undo"),
    ]


def test_win_is_detected_and_final(db: Database, player: str) -> None:
    game = new(db, player, deal=5)
    _force_position(db, game.id, NEARLY_WON)
    won = service.act(db=db, game_id=game.id, action="KS D12", version=0, now=T0)
    assert (won.status, won.score, won.finished_at) == ("won", 48, T0)
    with pytest.raises(service.GameOver, match="won"):
        service.act(db=db, game_id=game.id, action="undo", version=1)


def test_loss_is_recorded_at_once_and_undo_takes_it_back(db: Database, player: str) -> None:
    game = new(db, player, deal=5)
    stuck_after_one = NEARLY_WON.replace(
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS -- KS", "2S 3S 4S 5S 6S 7S 8S 9S TS -- KS JS QS"
    )
    _force_position(db, game.id, stuck_after_one)
    lost = service.act(db=db, game_id=game.id, action="JS D10", version=0, now=T0)
    assert lost.status == "lost"
    assert not lost.resigned
    assert lost.score == 46
    assert lost.finished_at == T0
    with pytest.raises(service.GameOver, match="no moves are left"):
        service.act(db=db, game_id=game.id, action="QS D12", version=1)
    back = service.act(db=db, game_id=game.id, action="undo", version=1)
    # (Undo replays the history from the deal; this forced position has none behind it.)
    # The game is in play again, but the loss stays on the record, with its moment.
    assert (back.status, back.result, back.finished_at) == ("playing", "lost", T0)


def test_resign_is_final(db: Database, player: str) -> None:
    game = new(db, player)
    service.act(db=db, game_id=game.id, action="5H C4", version=0)
    gave_up = service.act(db=db, game_id=game.id, action="resign", version=1)
    assert (gave_up.status, gave_up.resigned, gave_up.score) == ("lost", True, 0)
    for action in ("undo", "6S A13", "resign"):
        with pytest.raises(service.GameOver, match="given up"):
            service.act(db=db, game_id=game.id, action=action, version=2)


def test_play_time_counts_intervals_capped_at_a_minute(db: Database, player: str) -> None:
    game = new(db, player)
    at = [T0 + timedelta(seconds=s) for s in (10, 15, 3600)]
    first = service.act(db=db, game_id=game.id, action="5H C4", version=0, now=at[0])
    assert first.play_ms == 0, "the clock starts at the first move, not when the deal opened"
    service.act(db=db, game_id=game.id, action="6S A13", version=1, now=at[1])
    after = service.act(db=db, game_id=game.id, action="undo", version=2, now=at[2])
    assert after.play_ms == (5 + 60) * 1000


def test_history_replays_to_the_stored_position(db: Database, player: str) -> None:
    game = new(db, player, deal=77, variant="easy")
    version = 0
    position = game.position
    for step in range(40):
        legal = position.legal_moves()
        action = legal[step % len(legal)].notation if legal and step % 7 else "redeal"
        if action == "redeal" and step % 14 == 0 and version:
            action = "undo"
        try:
            current = service.act(db=db, game_id=game.id, action=action, version=version)
        except IllegalMoveError:
            continue
        version, position = current.version, current.position
        if current.is_over:
            break
    rows = [entry(e.kind, e.notation) for e in service.history(db=db, game_id=game.id)]
    stored = service.load(db=db, game_id=game.id)
    assert replay(montana.RULES, 77, "easy", rows) == stored.position


def test_unfinished_lists_the_players_games_newest_first(db: Database, player: str) -> None:
    first = new(db, player, deal=1)
    second = new(db, player, deal=2)
    service.act(db=db, game_id=first.id, action="5H C4", version=0, now=T0 + timedelta(1))
    service.act(db=db, game_id=second.id, action="resign", version=0)
    assert [g.id for g in service.unfinished(db=db, player_id=player)] == [first.id]


def _force_position(db: Database, game_id: str, text: str) -> None:
    """Set a constructed position (tests only: the service never does this)."""
    from sqlalchemy import update

    from app.store.models import GameRecord

    with db.write() as session:
        session.execute(update(GameRecord).where(GameRecord.id == game_id).values(position=text))


def test_undo_restores_the_stored_snapshot_as_a_replay_would(db: Database, player: str) -> None:
    """Moves, redeals and undos in any order: undo reads the position stored before the
    move it takes back, and lands where a replay of the history from the deal lands."""
    game = new(db, player, deal=7, variant="easy")
    position, version = game.position, 0
    script = ["move", "move", "undo", "move", "redeal", "move", "undo", "undo", "undo", "move"]
    for step in script:
        if step == "move":
            action = position.legal_moves()[0].notation
        elif step == "redeal":
            action = "redeal"
        else:
            action = "undo"
        game = service.act(db=db, game_id=game.id, action=action, version=version)
        version = game.version
        position = game.position
        rows = [entry(kind, text) for kind, text in stored_rows(db, game.id)]
        assert position == replay(montana.RULES, 7, "easy", rows)
        assert service.load(db=db, game_id=game.id) == game
    assert service.verify(db=db) == (1, [])


def test_nothing_to_undo_is_refused(db: Database, player: str) -> None:
    game = new(db, player)
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        service.act(db=db, game_id=game.id, action="undo", version=0)


def test_a_game_begun_before_snapshots_undoes_by_replay(db: Database, player: str) -> None:
    """Games stored before migration 0005 have no snapshots (``undo_top`` NULL)."""
    from sqlalchemy import update

    from app.store.models import GameRecord, MoveRecord

    game = new(db, player)
    moves = ["5H C4", "6S A13"]
    for version, action in enumerate(moves):
        game = service.act(db=db, game_id=game.id, action=action, version=version)
    with db.write() as session:
        session.execute(update(GameRecord).values(undo_top=None))
        session.execute(update(MoveRecord).values(before=None, below=None))
    game = service.act(db=db, game_id=game.id, action="undo", version=2)
    assert game.position == montana.new_game(1).play(montana.MontanaMove.from_text("5H C4"))
    game = service.act(db=db, game_id=game.id, action="6S A13", version=3)
    game = service.act(db=db, game_id=game.id, action="undo", version=4)
    assert game.moves_count == 1
    assert service.verify(db=db) == (1, [])


def test_verify_reports_a_snapshot_that_is_not_the_replay(db: Database, player: str) -> None:
    from sqlalchemy import update

    from app.store.models import MoveRecord

    game = new(db, player)
    for version, action in enumerate(["5H C4", "6S A13"]):
        service.act(db=db, game_id=game.id, action=action, version=version)
    with db.write() as session:
        wrong = montana.new_game(2).to_text()
        session.execute(update(MoveRecord).where(MoveRecord.ply == 2).values(before=wrong))
    _, problems = service.verify(db=db)
    assert [p.problem for p in problems] == [
        "ply 2: the position stored before the move is not the replay's"
    ]


def test_the_position_a_move_makes_is_the_one_the_next_move_starts_from(
    db: Database, player: str
) -> None:
    """Kept by its text (service.model.position_of): the next request reads the game's row
    and finds the position made, equal to what parsing the text would give, unparsed."""
    from app.service.model import position_of

    game = service.start(db=db, player_id=player, kind="montana", deal=3)
    move = game.position.legal_moves()[0].notation
    after = service.act(db=db, game_id=game.id, action=move, version=0, player_id=player)
    text = service.load(db=db, game_id=game.id).position.to_text()
    assert position_of("montana", text) is after.position
    assert montana.parse(text) == after.position
