"""``solitaire ratings`` against a real database: the days not rated yet, then none."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app.cli import main
from app.service import utcnow
from app.store import Database
from tests.cli.test_verify import env_database
from tests.test_ratings import add_game

__all__ = ["env_database"]  # the fixture, shared


def test_ratings_rates_the_days_missing_once(
    env_database: str, db: Database, capsys: pytest.CaptureFixture[str]
) -> None:
    yesterday = utcnow().date() - timedelta(days=1)
    add_game(db, "g1", "ann", 3, "won", day=yesterday - timedelta(days=1))
    add_game(db, "g2", "bob", 3, "lost", day=yesterday)
    assert main(["ratings", "--until", (yesterday - timedelta(days=1)).isoformat()]) == 0
    out = capsys.readouterr().out
    assert "games rated 1, players 1, deals 1" in out and "days rated: 1" in out
    assert main(["ratings"]) == 0
    assert f"{yesterday.isoformat()}: games rated 1," in capsys.readouterr().out
    assert main(["ratings"]) == 0
    assert "every day is rated already" in capsys.readouterr().out


def test_ratings_refuses_a_day_not_over_or_not_a_day(
    env_database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ratings", "--until", utcnow().date().isoformat()]) == 2
    assert "is not over yet" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["ratings", "--until", "yesterday"])
    assert "not a day (YYYY-MM-DD): 'yesterday'" in capsys.readouterr().err
