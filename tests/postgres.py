"""A throw-away PostgreSQL server for the test session: Debian's binaries, a temporary
data directory, a free loopback port; one migrated template database, copied for a test.

A test's database is used again by a later test once it is back to the template's rows:
every table the template leaves empty emptied, each sequence set back, and the rows the
template holds checked unchanged (else the database is dropped and a new copy made).
Emptying a database costs a few milliseconds; copying one, about 0.19 s of the server's
CPU."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from app.store.migrate import upgrade

TEMPLATE = "solitaire_template"
DIGEST = "SELECT md5(string_agg(row::text, ',' ORDER BY row::text)) FROM {table} AS row"
"""A table's rows as one digest (``NULL``: none)."""
SEQUENCES = (
    "SELECT schemaname || '.' || sequencename AS name,"
    " coalesce(last_value, start_value) AS value, last_value IS NOT NULL AS called"
    " FROM pg_sequences"
)


def binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``: on PATH, or Debian's own place."""
    found = shutil.which("pg_ctl")
    if found:
        return Path(os.path.realpath(found)).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(candidates[-1]).parent if candidates else None


def _as_server_user(command: list[str]) -> list[str]:
    """initdb and postgres refuse to run as root: run them as the ``postgres`` user."""
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PostgresServer:
    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.folder = Path(tempfile.mkdtemp(prefix="solitaire-pg-"))
        self.data = self.folder / "data"
        self.port = _free_port()
        self.free: list[str] = []  # databases back to the template's rows, ready again
        self.emptied: list[str] = []  # the tables the template leaves empty
        self.kept: dict[str, str] = {}  # the other tables: a digest of their rows
        self.sequences: list[tuple[str, int, bool]] = []
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
        os.chmod(self.folder, 0o755)

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        subprocess.run(
            _as_server_user([str(self.bin_dir / "initdb"), "-D", str(self.data), "-A", "trust",
                             "-U", "postgres", "--no-sync", "-E", "UTF8"]),
            check=True, capture_output=True,
        )  # fmt: skip
        for attempt in range(3):  # a port found free may be taken before the server binds it
            options = f"-p {self.port} -h 127.0.0.1 -k {self.folder} -F -c fsync=off"
            started = subprocess.run(
                _as_server_user([str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-o",
                                 options, "-l", str(self.folder / "log"), "-w", "start"]),
                capture_output=True,
            )  # fmt: skip
            if started.returncode == 0:
                break
            if attempt == 2:
                started.check_returncode()
            self.port = _free_port()
        deadline = time.monotonic() + 60  # a bound for liveness on a loaded machine
        engine = create_engine(self.url("postgres"), isolation_level="AUTOCOMMIT")
        while True:
            try:
                with engine.connect() as connection:
                    connection.execute(text(f"CREATE DATABASE {TEMPLATE}"))
                break
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        engine.dispose()
        upgrade(self.url(TEMPLATE))
        self.admin = create_engine(self.url("postgres"), isolation_level="AUTOCOMMIT")
        template = create_engine(self.url(TEMPLATE))
        with template.connect() as connection:
            tables = connection.execute(
                text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
            ).scalars()
            for table in sorted(tables):
                digest = connection.execute(text(DIGEST.format(table=table))).scalar()
                if digest is None:
                    self.emptied.append(table)
                else:
                    self.kept[table] = digest
            self.sequences = [
                (row.name, row.value, row.called) for row in connection.execute(text(SEQUENCES))
            ]
        template.dispose()

    @contextmanager
    def database(self) -> Iterator[str]:
        """A migrated database with the template's rows for one test (a former test's,
        emptied, or a new copy)."""
        if self.free:
            name = self.free.pop()
        else:
            name = f"t_{uuid.uuid4().hex[:12]}"
            with self.admin.connect() as connection:
                connection.execute(text(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}"))
        try:
            yield self.url(name)
        finally:
            if self._emptied(name):
                self.free.append(name)
            else:
                with self.admin.connect() as connection:
                    connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))

    def _emptied(self, name: str) -> bool:
        """``name`` back to the template's rows (True), or not to be used again."""
        with self.admin.connect() as connection:  # what a test left connected goes
            connection.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = :name AND pid <> pg_backend_pid()"
                ),
                {"name": name},
            )
        engine = create_engine(self.url(name), poolclass=NullPool)
        try:
            with engine.begin() as connection:
                for table, digest in self.kept.items():
                    if connection.execute(text(DIGEST.format(table=table))).scalar() != digest:
                        return False
                connection.execute(text("SET LOCAL session_replication_role = replica"))
                for table in self.emptied:
                    connection.execute(text(f"DELETE FROM {table}"))
                for sequence, value, called in self.sequences:
                    connection.execute(
                        text("SELECT setval(:sequence, :value, :called)"),
                        {"sequence": sequence, "value": value, "called": called},
                    )
            return True
        except Exception:  # a database a test left in a state of its own: made again
            return False
        finally:
            engine.dispose()

    def stop(self) -> None:
        if hasattr(self, "admin"):
            self.admin.dispose()
        subprocess.run(
            _as_server_user([str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                             "stop"]),
            capture_output=True,
        )  # fmt: skip
        shutil.rmtree(self.folder, ignore_errors=True)
