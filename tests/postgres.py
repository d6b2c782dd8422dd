"""A throw-away PostgreSQL server for the test session: Debian's binaries, a temporary
data directory, a free loopback port; one migrated template database copied per test."""

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

from app.store.migrate import upgrade

TEMPLATE = "solitaire_template"


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

    @contextmanager
    def database(self) -> Iterator[str]:
        """A fresh migrated database for one test, dropped afterwards."""
        name = f"t_{uuid.uuid4().hex[:12]}"
        engine = create_engine(self.url("postgres"), isolation_level="AUTOCOMMIT")
        with engine.connect() as connection:
            connection.execute(text(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}"))
        try:
            yield self.url(name)
        finally:
            with engine.connect() as connection:
                connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            engine.dispose()

    def stop(self) -> None:
        subprocess.run(
            _as_server_user([str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                             "stop"]),
            capture_output=True,
        )  # fmt: skip
        shutil.rmtree(self.folder, ignore_errors=True)
