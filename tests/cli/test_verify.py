"""``solitaire verify`` and ``solitaire seed-demo`` against a real database."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import update

from app import service
from app.cli import main
from app.config import get_settings
from app.store import Database
from app.store.models import GameRecord


@pytest.fixture
def env_database(database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("DATABASE_URL", database_url)
    get_settings.cache_clear()
    yield database_url
    get_settings.cache_clear()


def play_some(db: Database) -> str:
    player = service.ensure_player(db=db, player_id=None)
    montana_game = service.start(db=db, player_id=player, kind="montana", deal=1)
    for version, action in enumerate(["5H C4", "redeal", "undo", "6S A13"]):
        service.act(db=db, game_id=montana_game.id, action=action, version=version)
    freecell_game = service.start(db=db, player_id=player, kind="freecell", deal=1)
    service.act(db=db, game_id=freecell_game.id, action="6a", version=0)
    service.act(db=db, game_id=freecell_game.id, action="6b", version=1)
    return montana_game.id


def test_verify_passes_on_real_games(
    env_database: str, db: Database, capsys: pytest.CaptureFixture[str]
) -> None:
    play_some(db)
    assert main(["verify"]) == 0
    assert "checked 2 games: every one replays to its stored position" in capsys.readouterr().out


def test_verify_reports_a_game_whose_position_differs(
    env_database: str, db: Database, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = play_some(db)
    with db.write() as session:
        other = service.load(db=db, game_id=game_id).position.play(  # a move the history lacks
            service.load(db=db, game_id=game_id).position.legal_moves()[0]
        )
        session.execute(
            update(GameRecord).where(GameRecord.id == game_id).values(position=other.to_text())
        )
    assert main(["verify"]) == 1
    out = capsys.readouterr().out
    assert f"{game_id}: the replayed position differs from the stored one" in out
    assert "1 differ" in out


def test_verify_reports_a_version_that_does_not_match_the_history(
    env_database: str, db: Database, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = play_some(db)
    with db.write() as session:
        session.execute(update(GameRecord).where(GameRecord.id == game_id).values(version=9))
    assert main(["verify"]) == 1
    assert "version 9 but 4 actions stored" in capsys.readouterr().out


def test_seed_demo_games_all_replay(
    env_database: str, db: Database, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["seed-demo", "--games", "60", "--players", "3"]) == 0
    assert "added 60 finished demo games" in capsys.readouterr().out
    assert main(["verify"]) == 0
    assert "checked 60 games" in capsys.readouterr().out
