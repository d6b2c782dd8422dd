"""Migrations make the schema; the models match it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import CheckConstraint, create_engine, insert, inspect, text
from sqlalchemy.exc import IntegrityError

from app.service import names
from app.store.migrate import alembic_config, upgrade
from app.store.models import Base, GameRecord, PlayerRecord
from app.store.tournament_models import TournamentGameRecord, TournamentRecord


def test_migrations_upgrade_an_empty_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'empty.db'}"
    upgrade(url)
    tables = set(inspect(create_engine(url)).get_table_names())
    assert {"players", "games", "moves", "alembic_version"} <= tables


def test_models_match_the_migrated_schema(database_url: str) -> None:
    engine = create_engine(database_url)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, Base.metadata) == []
    engine.dispose()


def _checks(url: str, table: str) -> dict[str, str]:
    engine = create_engine(url)
    try:
        found = inspect(engine).get_check_constraints(table)
    finally:
        engine.dispose()
    return {str(check["name"]): str(check["sqltext"]) for check in found}


def test_models_and_migrations_make_the_same_checks(database_url: str) -> None:
    """Autogenerate does not compare CHECK constraints: their names are compared here, and
    on SQLite (which keeps them as written) their conditions too."""
    for table in Base.metadata.sorted_tables:
        modelled = {
            str(constraint.name): str(constraint.sqltext)
            for constraint in table.constraints
            if isinstance(constraint, CheckConstraint)
        }
        migrated = _checks(database_url, table.name)
        assert migrated.keys() == modelled.keys(), table.name
        if database_url.startswith("sqlite"):
            assert migrated == modelled, table.name
    assert _checks(database_url, "games").keys() == {"ck_games_result", "ck_games_status"}


def test_upgrading_twice_is_harmless(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'twice.db'}"
    upgrade(url)
    upgrade(url)


def test_upgrading_a_database_with_games_loses_none(tmp_path: Path) -> None:
    """Games written under the first schema (as the first release wrote them) survive."""
    from sqlalchemy import text

    from app import service as games
    from app.games.montana import rules as montana
    from app.store import Database

    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade(url, "0001")
    engine = create_engine(url)
    now = "2026-11-01 12:00:00.000000"
    with engine.begin() as connection:
        connection.execute(
            text("INSERT INTO players (id, created_at, auto_moves) VALUES ('p', :now, 1)"),
            {"now": now},
        )
        for deal in (1, 2, 3):
            position = montana.new_game(deal).redeal()
            connection.execute(
                text(
                    "INSERT INTO games (id, player_id, kind, variant, deal, status, resigned,"
                    " version, position, score, cards_left, moves_count, play_ms, created_at,"
                    " last_action_at, finished_at) VALUES (:id, 'p', 'montana', 'expert', :deal,"
                    " 'playing', 0, 1, :position, :score, :left, 1, 1000, :now, :now, NULL)"
                ),
                {
                    "id": f"game{deal}",
                    "deal": deal,
                    "position": position.to_text(),
                    "score": position.score,
                    "left": position.cards_left,
                    "now": now,
                },
            )
            connection.execute(
                text(
                    "INSERT INTO moves (game_id, ply, kind, notation, created_at)"
                    " VALUES (:id, 1, 'redeal', 'redeal', :now)"
                ),
                {"id": f"game{deal}", "now": now},
            )
    engine.dispose()

    upgrade(url)
    db = Database(url)
    try:
        loaded = [games.load(db=db, game_id=f"game{deal}") for deal in (1, 2, 3)]
        assert [game.position for game in loaded] == [
            montana.new_game(deal).redeal() for deal in (1, 2, 3)
        ]
        assert all(game.hints_used == 0 for game in loaded)
        assert games.verify(db=db) == (3, [])
        # And they play on under the new schema.
        games.act(db=db, game_id="game1", action="undo", version=1)
    finally:
        db.dispose()
    with create_engine(url).connect() as connection:  # 0012: a redeal is stored as a move
        kinds = connection.execute(text("SELECT DISTINCT kind, notation FROM moves"))
        assert sorted(tuple(row) for row in kinds) == [("move", "redeal"), ("undo", "undo")]


def test_redeals_are_moves_and_come_back_down(database_url: str) -> None:
    """0011 to 0012, on either database: a stored ``redeal`` row is a ``move`` named
    ``redeal``, and down again it is a ``redeal`` (other moves stay moves)."""
    command.downgrade(alembic_config(database_url), "0011")
    engine = create_engine(database_url)
    now = "2026-12-01 12:00:00+00:00"
    try:
        with engine.begin() as connection:
            connection.execute(
                text("INSERT INTO players (id, created_at) VALUES ('p12', :now)"), {"now": now}
            )
            connection.execute(
                text(
                    "INSERT INTO games (id, player_id, kind, variant, deal, status, resigned,"
                    " version, position, score, cards_left, moves_count, play_ms, created_at,"
                    " last_action_at) VALUES ('g12', 'p12', 'montana', 'expert', 1, 'playing',"
                    " false, 2, 'x', 0, 48, 2, 0, :now, :now)"
                ),
                {"now": now},
            )
            for ply, kind, notation in ((1, "move", "5H C4"), (2, "redeal", "redeal")):
                connection.execute(
                    text(
                        "INSERT INTO moves (game_id, ply, kind, notation, created_at)"
                        " VALUES ('g12', :ply, :kind, :notation, :now)"
                    ),
                    {"ply": ply, "kind": kind, "notation": notation, "now": now},
                )
        select = text("SELECT kind FROM moves WHERE game_id = 'g12' ORDER BY ply")
        upgrade(database_url)
        with engine.connect() as connection:
            assert list(connection.scalars(select)) == ["move", "move"]
        command.downgrade(alembic_config(database_url), "0011")
        with engine.connect() as connection:
            assert list(connection.scalars(select)) == ["move", "redeal"]
        with engine.begin() as connection:
            connection.execute(text("DELETE FROM moves WHERE game_id = 'g12'"))
            connection.execute(text("DELETE FROM games WHERE id = 'g12'"))
            connection.execute(text("DELETE FROM players WHERE id = 'p12'"))
    finally:
        engine.dispose()
        upgrade(database_url)


def test_the_kind_and_status_checks_keep_every_game_and_move(database_url: str) -> None:
    """0005 to 0006, on either database: the checks come, no game nor move goes; and down
    again, the checks go."""
    from app import service
    from app.games import GAMES
    from app.store import Database

    command.downgrade(alembic_config(database_url), "0005")
    assert _checks(database_url, "games") == {}
    engine = create_engine(database_url)
    now = "2026-11-30 12:00:00+00:00"
    with engine.begin() as connection:
        connection.execute(
            text("INSERT INTO players (id, created_at, auto_moves) VALUES ('p', :now, true)"),
            {"now": now},
        )
        # The games there were at 0005, as history: named here, not read from the registry.
        for kind in ("montana", "freecell"):
            rules = GAMES[kind]
            for deal in (1, 2):
                deal_position = rules.new_game(deal, rules.default_variant)
                action = deal_position.legal_moves()[0]
                position = deal_position.play(action)
                connection.execute(
                    text(
                        "INSERT INTO games (id, player_id, kind, variant, deal, status, resigned,"
                        " version, position, score, cards_left, moves_count, play_ms,"
                        " hints_used, created_at, last_action_at, finished_at, undo_top)"
                        " VALUES (:id, 'p', :kind, :variant, :deal, 'playing', false, 1,"
                        " :position, :score, :left, 1, 1000, 0, :now, :now, NULL, 1)"
                    ),
                    {
                        "id": f"{kind}{deal}",
                        "kind": kind,
                        "variant": rules.default_variant,
                        "deal": deal,
                        "position": position.to_text(),
                        "score": position.score,
                        "left": position.cards_left,
                        "now": now,
                    },
                )
                connection.execute(
                    text(
                        'INSERT INTO moves (game_id, ply, kind, notation, created_at, "before",'
                        " below) VALUES (:id, 1, :kind, :notation, :now, :before, 0)"
                    ),
                    {
                        "id": f"{kind}{deal}",
                        "kind": action.kind,
                        "notation": action.notation,
                        "now": now,
                        "before": deal_position.to_text(),
                    },
                )
    engine.dispose()

    command.upgrade(alembic_config(database_url), "0006")
    assert _checks(database_url, "games").keys() == {"ck_games_kind", "ck_games_status"}
    upgrade(database_url)  # 0010: the kinds become rows of game_kinds
    assert _checks(database_url, "games").keys() == {"ck_games_result", "ck_games_status"}
    db = Database(database_url)
    try:
        assert service.verify(db=db) == (4, [])
        with db.read() as session:
            assert session.scalar(text("SELECT count(*) FROM moves")) == 4
        undone = service.act(db=db, game_id="freecell1", action="undo", version=1)
        assert (undone.version, undone.moves_count) == (2, 0)
        unknown = "FOREIGN KEY|fk_games_kind_game_kinds"
        with pytest.raises(IntegrityError, match=unknown), db.engine.begin() as c:
            c.execute(text("UPDATE games SET kind = 'chess' WHERE id = 'montana1'"))
    finally:
        db.dispose()

    command.downgrade(alembic_config(database_url), "0005")
    assert _checks(database_url, "games") == {}
    engine = create_engine(database_url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE games SET kind = 'chess' WHERE id = 'montana1'"))
        assert connection.scalar(text("SELECT count(*) FROM moves")) == 5
    engine.dispose()


def test_games_stored_before_variants_replay_after_0010(tmp_path: Path) -> None:
    """A database the code before variants made (9 games of FreeCell and both Montana
    variants, at 0006, dumped with ``sqlite3 .dump``): upgraded, every game replays to its
    stored position, read as the standard variant, and plays on."""
    import sqlite3

    from app import service
    from app.store import Database

    path = tmp_path / "before.db"
    with sqlite3.connect(path) as connection:
        connection.executescript((FIXTURES / "games-before-variants.sql").read_text())
    url = f"sqlite:///{path}"
    upgrade(url)
    db = Database(url)
    try:
        assert service.verify(db=db) == (9, [])
        games = service.my_games(db=db, player_id=_only_player(url)).games
        freecell = next(game for game in games if game.kind == "freecell")
        assert freecell.variant == "standard"
        assert "Variant" not in freecell.position.to_text()
        move = freecell.position.legal_moves()[0].notation
        service.act(db=db, game_id=freecell.id, action=move, version=freecell.version)
    finally:
        db.dispose()


FIXTURES = Path(__file__).parent / "fixtures"


def _only_player(url: str) -> str:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return str(connection.scalar(text("SELECT id FROM players")))
    finally:
        engine.dispose()


def test_the_auto_home_switch_becomes_its_mode_and_back(database_url: str) -> None:
    """0006 to 0011, on either database: "auto home" on is ``safe``, off is ``off``, every
    other setting starts at today's look and the database checks each word; and down
    again, the modes that are not off are on."""
    from app import service
    from app.store import Database

    command.downgrade(alembic_config(database_url), "0006")
    engine = create_engine(database_url)
    now = "2026-12-01 12:00:00+00:00"
    with engine.begin() as connection:
        for player, on in (("on", True), ("off", False)):
            connection.execute(
                text("INSERT INTO players (id, created_at, auto_moves) VALUES (:id, :now, :on)"),
                {"id": player, "now": now, "on": on},
            )
    engine.dispose()

    upgrade(database_url)
    assert {"ck_players_deck", "ck_players_auto_home"} <= _checks(database_url, "players").keys()
    db = Database(database_url)
    try:
        assert service.settings(db=db, player_id="on") == service.Settings(auto_home="safe")
        assert service.settings(db=db, player_id="off") == service.Settings(auto_home="off")
        service.save_settings(db=db, player_id="on", changes={"auto_home": "all"})
        with pytest.raises(IntegrityError, match="ck_players_deck"), db.engine.begin() as c:
            c.execute(text("UPDATE players SET deck = 'nine' WHERE id = 'on'"))
    finally:
        db.dispose()

    command.downgrade(alembic_config(database_url), "0006")
    engine = create_engine(database_url)
    with engine.begin() as connection:
        rows = connection.execute(text("SELECT id, auto_moves FROM players ORDER BY id"))
        assert [(row.id, bool(row.auto_moves)) for row in rows] == [("off", False), ("on", True)]
    engine.dispose()
    upgrade(database_url)


def test_names_become_unique_by_their_skeleton(database_url: str) -> None:
    """0012 to 0013, on either database: kept names are keyed by their confusable
    skeleton; a name that looks like an earlier player's, or one the rules now refuse, is
    cleared; a fullwidth name is kept as NFKC. Down again, the keys are the folded names."""
    command.downgrade(alembic_config(database_url), "0012")
    engine = create_engine(database_url)
    named = {
        "p1": ("Ada", "ada", "2026-12-01 12:00:00+00:00"),
        "p2": ("\u0410d\u0430", "\u0430d\u0430", "2026-12-01 12:00:01+00:00"),  # Cyrillic As
        "p3": ("anonym\u043eus", "anonym\u043eus", "2026-12-01 12:00:02+00:00"),  # a Cyrillic o
        "p4": ("\uff22\uff45\uff4e", "\uff42\uff45\uff4e", "2026-12-01 12:00:03+00:00"),
        "p5": ("b" + "\u0301" * 23, "b" + "\u0301" * 23, "2026-12-01 12:00:04+00:00"),
    }
    try:
        with engine.begin() as connection:
            for player_id, (name, key, when) in named.items():
                connection.execute(
                    text(
                        "INSERT INTO players (id, created_at, name, name_key)"
                        " VALUES (:id, :when, :name, :key)"
                    ),
                    {"id": player_id, "when": when, "name": name, "key": key},
                )
        select = text("SELECT id, name, name_key FROM players WHERE id LIKE 'p_' ORDER BY id")
        upgrade(database_url)
        with engine.connect() as connection:
            rows = {row[0]: (row[1], row[2]) for row in connection.execute(select)}
        assert rows["p1"] == ("Ada", names.key("Ada"))
        assert rows["p2"] == (None, None)  # looks like Ada, who came first
        assert rows["p3"] == (None, None)  # looks like the records' "anonymous"
        assert rows["p4"] == ("Ben", names.key("Ben"))
        assert rows["p5"] == (None, None)  # a stack of marks
        command.downgrade(alembic_config(database_url), "0012")
        with engine.connect() as connection:
            rows = {row[0]: (row[1], row[2]) for row in connection.execute(select)}
        assert rows["p1"] == ("Ada", "ada") and rows["p4"] == ("Ben", "ben")
    finally:
        engine.dispose()
        upgrade(database_url)


def test_montana_positions_name_their_variant_and_come_back_down(database_url: str) -> None:
    """0015 to 0016, on either database: an Easy game's position, the position its
    verdict was asked at and the snapshot kept for undo name their variant, each read
    back as an Easy position; a Montana (Expert) game's stay as they were; and down
    again each is what it was."""
    from app.games.montana.rules import RULES

    command.downgrade(alembic_config(database_url), "0015")
    engine = create_engine(database_url)
    now = "2026-12-01 12:00:00+00:00"
    easy = RULES.new_game(3, "easy")
    old_easy = easy.to_text().partition("\n")[2]  # as 0015 stored it: no Variant line
    expert = RULES.new_game(3, "expert").to_text()
    assert easy.to_text().startswith("Variant: easy\n") and not expert.startswith("Variant")
    games = {"g16e": ("easy", old_easy), "g16x": ("expert", expert)}
    try:
        with engine.begin() as connection:
            connection.execute(
                text("INSERT INTO players (id, created_at) VALUES ('p16', :now)"), {"now": now}
            )
            for game_id, (variant, position) in games.items():
                connection.execute(
                    text(
                        "INSERT INTO games (id, player_id, kind, variant, deal, status, resigned,"
                        " version, position, verdict_position, score, cards_left, moves_count,"
                        " play_ms, created_at, last_action_at) VALUES (:id, 'p16', 'montana',"
                        " :variant, 3, 'playing', false, 1, :position, :position, 0, 48, 1, 0,"
                        " :now, :now)"
                    ),
                    {"id": game_id, "variant": variant, "position": position, "now": now},
                )
                connection.execute(
                    text(
                        'INSERT INTO moves (game_id, ply, kind, notation, created_at, "before")'
                        " VALUES (:id, 1, 'move', 'redeal', :now, :position)"
                    ),
                    {"id": game_id, "position": position, "now": now},
                )
        read = text(
            'SELECT g.position, g.verdict_position, m."before" FROM games g'
            " JOIN moves m ON m.game_id = g.id WHERE g.id = :id"
        )
        upgrade(database_url)
        with engine.connect() as connection:
            for column in connection.execute(read, {"id": "g16e"}).one():
                assert column == easy.to_text()
                assert RULES.parse(column) == easy and RULES.parse(column).variant.name == "easy"
            assert set(connection.execute(read, {"id": "g16x"}).one()) == {expert}
        command.downgrade(alembic_config(database_url), "0015")
        with engine.connect() as connection:
            assert set(connection.execute(read, {"id": "g16e"}).one()) == {old_easy}
            assert set(connection.execute(read, {"id": "g16x"}).one()) == {expert}
        with engine.begin() as connection:
            connection.execute(text("DELETE FROM moves WHERE game_id IN ('g16e', 'g16x')"))
            connection.execute(text("DELETE FROM games WHERE id IN ('g16e', 'g16x')"))
            connection.execute(text("DELETE FROM players WHERE id = 'p16'"))
    finally:
        engine.dispose()
        upgrade(database_url)


def test_the_labels_of_unnamed_players_are_cleared_and_the_theme_comes(database_url: str) -> None:
    """0016 to 0018, on either database: a kept name that is a label the site gives an
    unnamed player (any language, any number) is cleared; other names stay; every player
    gets the system's theme. Down again, no theme column."""
    command.downgrade(alembic_config(database_url), "0016")
    engine = create_engine(database_url)
    named = {"q1": "Ada 1", "q2": "anonymous 1", "q3": "\u0917\u0941\u092e\u0928\u093e\u092e 7"}
    try:
        with engine.begin() as connection:
            for player_id, name in named.items():
                connection.execute(
                    text(
                        "INSERT INTO players (id, created_at, name, name_key)"
                        " VALUES (:id, '2026-12-04 10:00:00+00:00', :name, :key)"
                    ),
                    {"id": player_id, "name": name, "key": names.key(name)},
                )
        upgrade(database_url)
        select = text("SELECT id, name, theme FROM players WHERE id LIKE 'q_' ORDER BY id")
        with engine.connect() as connection:
            rows = {row[0]: (row[1], row[2]) for row in connection.execute(select)}
        assert rows == {"q1": ("Ada 1", "system"), "q2": (None, "system"), "q3": (None, "system")}
        command.downgrade(alembic_config(database_url), "0016")
        with engine.connect() as connection:
            columns = {column["name"] for column in inspect(connection).get_columns("players")}
        assert "theme" not in columns
    finally:
        engine.dispose()
        upgrade(database_url)


def test_the_entrants_totals_are_filled_from_the_games_played(database_url: str) -> None:
    """0022, on either database: each entrant's totals are counted from their tournament
    games (results after the week's end not counted); down again, no table."""
    command.downgrade(alembic_config(database_url), "0021")
    engine = create_engine(database_url)
    start = datetime(2026, 11, 30, tzinfo=UTC)
    ends = start + timedelta(7)
    games = [  # player, result, play_ms, moves, finished
        ("t1", "won", 5000, 90, start + timedelta(1)),
        ("t1", "lost", 1000, 10, start + timedelta(2)),
        ("t1", None, 0, 3, None),
        ("t2", "won", 7000, 80, ends + timedelta(hours=1)),  # after the week
    ]
    try:
        with engine.begin() as connection:
            connection.execute(
                insert(PlayerRecord), [{"id": p, "created_at": start} for p in ("t1", "t2")]
            )
            connection.execute(
                insert(TournamentRecord),
                [{"id": 7, "kind": "freecell", "variant": "standard", "week": start.date(),
                  "starts_at": start, "ends_at": ends, "deals": "1,2,3", "created_at": start}],
            )  # fmt: skip
            for n, (player, result, play_ms, moves, finished) in enumerate(games, start=1):
                game_id = f"tg{n}".ljust(24, "x")
                connection.execute(
                    insert(GameRecord),
                    [{"id": game_id, "player_id": player, "kind": "freecell",
                      "variant": "standard", "deal": n, "status": result or "playing",
                      "resigned": result == "lost", "version": 1, "position": "-",
                      "cards_left": 0, "moves_count": moves, "play_ms": play_ms,
                      "hints_used": 0, "created_at": start, "last_action_at": start,
                      "result": result, "finished_at": finished, "undo_top": 0}],
                )  # fmt: skip
                connection.execute(
                    insert(TournamentGameRecord),
                    [{"tournament_id": 7, "k": n, "game_id": game_id, "player_id": player}],
                )
        upgrade(database_url)
        select = text(
            "SELECT player_id, entered, played, won, won_ms, won_moves FROM tournament_entrants"
            " WHERE tournament_id = 7 ORDER BY player_id"
        )
        with engine.connect() as connection:
            found = [tuple(row) for row in connection.execute(select)]
        assert found == [("t1", 3, 2, 1, 5000, 90), ("t2", 1, 0, 0, 0, 0)]
        command.downgrade(alembic_config(database_url), "0021")
        assert "tournament_entrants" not in inspect(engine).get_table_names()
    finally:
        with engine.begin() as connection:
            connection.execute(text("DELETE FROM tournament_games WHERE tournament_id = 7"))
            connection.execute(text("DELETE FROM games WHERE id LIKE 'tg%'"))
            connection.execute(text("DELETE FROM tournaments WHERE id = 7"))
            connection.execute(text("DELETE FROM players WHERE id IN ('t1', 't2')"))
        engine.dispose()
        upgrade(database_url)
