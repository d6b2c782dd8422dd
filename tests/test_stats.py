"""Statistics against hand-computed expectations."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app import stats
from app.store import Database
from app.store.models import GameRecord, PlayerRecord

T0 = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
MONTANA = stats.Group("montana", "expert")
FREECELL = stats.Group("freecell", "standard")


def add_games(
    db: Database, player: str, results: str, kind: str = "montana", **extra: object
) -> None:
    """One finished game per letter, a minute apart: W won, L lost, P still playing."""
    with db.write() as session:
        if session.get(PlayerRecord, player) is None:
            session.add(PlayerRecord(id=player, created_at=T0))
            session.flush()
        for index, letter in enumerate(results):
            finished = T0 + timedelta(minutes=index)
            status = {"W": "won", "L": "lost", "P": "playing"}[letter]
            session.add(
                GameRecord(
                    id=f"{player}-{kind}-{index}-{len(results)}",
                    player_id=player,
                    kind=kind,
                    variant="expert" if kind == "montana" else "standard",
                    deal=index + 1,
                    status=status,
                    resigned=False,
                    version=1,
                    position="",
                    score=(48 if letter == "W" else 10 + index) if kind == "montana" else None,
                    cards_left=0 if letter == "W" else 20 + index,
                    moves_count=100 + index,
                    play_ms=(index + 1) * 60_000,
                    created_at=finished,
                    last_action_at=finished,
                    finished_at=None if letter == "P" else finished,
                    result=None if letter == "P" else status,
                    **extra,
                )
            )


def test_empty_history(db: Database) -> None:
    result = stats.group_stats(db=db, group=MONTANA, player_id=None)
    assert (result.played, result.won, result.win_percent) == (0, 0, None)
    assert (result.current_streak, result.best_streak) == (0, 0)
    assert result.fastest_win_ms is None
    assert result.median_win_ms is None


def test_a_player_with_one_game(db: Database) -> None:
    add_games(db, "solo", "W")
    result = stats.group_stats(db=db, group=MONTANA, player_id="solo")
    assert (result.played, result.won, result.lost, result.win_percent) == (1, 1, 0, 100.0)
    assert (result.current_streak, result.best_streak) == (1, 1)
    assert result.fastest_win_ms == result.median_win_ms == result.mean_win_ms == 60_000
    assert result.mean_moves_per_win == 100


def test_streaks_across_wins_and_losses(db: Database) -> None:
    # W W L W W W L W W  → best 3, current 2
    add_games(db, "p", "WWLWWWLWW")
    result = stats.group_stats(db=db, group=MONTANA, player_id="p")
    assert (result.won, result.lost) == (7, 2)
    assert (result.current_streak, result.best_streak) == (2, 3)
    assert result.win_percent == pytest.approx(700 / 9)


def test_current_streak_is_zero_after_a_loss_and_unfinished_games_do_not_count(
    db: Database,
) -> None:
    add_games(db, "p", "WWWLP")
    result = stats.group_stats(db=db, group=MONTANA, player_id="p")
    assert (result.current_streak, result.best_streak, result.played) == (0, 3, 4)


def test_ties_in_finish_time_are_ordered_by_id(db: Database) -> None:
    with db.write() as session:
        session.add(PlayerRecord(id="t", created_at=T0))
        session.flush()
        for game_id, status in (("t-a", "won"), ("t-b", "lost"), ("t-c", "won")):
            session.add(
                GameRecord(
                    id=game_id, player_id="t", kind="montana", variant="expert", deal=1,
                    status=status, resigned=False, version=1, position="", score=0,
                    cards_left=0, moves_count=1, play_ms=1000, created_at=T0,
                    last_action_at=T0, finished_at=T0, result=status,
                )
            )  # fmt: skip
    result = stats.group_stats(db=db, group=MONTANA, player_id="t")
    assert (result.current_streak, result.best_streak) == (1, 1)


def test_median_and_means_of_winning_times(db: Database) -> None:
    add_games(db, "m", "WLWWL")  # wins at indices 0, 2, 3 → 1, 3, 4 minutes
    result = stats.group_stats(db=db, group=MONTANA, player_id="m")
    assert result.median_win_ms == 180_000
    assert result.mean_win_ms == pytest.approx((60 + 180 + 240) * 1000 / 3)
    assert result.fastest_win_ms == 60_000
    add_games(db, "even", "WW")
    assert stats.group_stats(db=db, group=MONTANA, player_id="even").median_win_ms == 90_000


def test_montana_mean_score_and_freecell_cards_left(db: Database) -> None:
    add_games(db, "s", "WL")  # scores 48 and 11
    assert stats.group_stats(db=db, group=MONTANA, player_id="s").mean_score == 29.5
    add_games(db, "f", "LWL", kind="freecell")  # cards left 20 and 22 on the losses
    result = stats.group_stats(db=db, group=FREECELL, player_id="f")
    assert result.mean_cards_left_lost == 21
    assert result.mean_score is None


def test_player_and_site_scopes(db: Database) -> None:
    add_games(db, "a", "WW")
    add_games(db, "b", "L")
    assert stats.group_stats(db=db, group=MONTANA, player_id="a").played == 2
    assert stats.group_stats(db=db, group=MONTANA, player_id=None).played == 3


def test_charts(db: Database) -> None:
    add_games(db, "c", "WLW")
    charts = stats.charts(db=db, group=MONTANA, player_id="c", now=T0 + timedelta(days=1))
    assert charts.recent == [True, False, True]
    assert dict(charts.win_times)["1–2"] == 1  # 60 000 ms is in the second bin
    assert dict(charts.win_times)["3–4"] == 1
    assert len(charts.days) == stats.DAYS_SHOWN
    assert charts.days[-2] == ("2026-11-20", 2, 1)
    assert charts.days[-1] == ("2026-11-21", 0, 0)


def test_groups_cover_every_game_and_variant() -> None:
    assert [g.slug for g in stats.GROUPS] == [
        "montana-expert",
        "montana-easy",
        "montana-blue-moon",
        "montana-red-moon",
        *(f"freecell-{name}" for name in ("standard", "bakers", "cells-3", "cells-2")),
        *(f"freecell-{name}" for name in ("cells-1", "eight-off", "seahaven", "forecell")),
    ]
    assert stats.group_for("montana-easy") == stats.Group("montana", "easy")
    assert stats.group_for("chess") is None
