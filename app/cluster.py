"""The site as it runs on several machines, on this one: a PostgreSQL server, Redis, three
app servers and HAProxy in front, each its own process, as each would be its own host.

    python -m app.cluster up [--servers 3] [--port 8000]   (make cluster)
    python -m app.cluster down                            (make cluster-stop)
    python -m app.cluster status

Everything lives under ``data/cluster/``: PostgreSQL's data, and for each process its PID
(``app-1.pid`` … ``app-3.pid``, ``haproxy.pid``, ``postgres.pid``, ``redis.pid``) and its
log beside it (``app-1.log`` …), so an operator or a test can find and stop any one of
them. ``cluster.json`` keeps the ports chosen. The proxy listens on ``CLUSTER_PORT``
(8000); the others take free ports. The tests (tests/cluster/) and bench/cluster.py drive
the same :class:`Cluster`. docs/deploying.md gives the same on real hosts.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import glob
import io
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from string import Template
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
FOLDER: Final = ROOT / "data" / "cluster"
TEMPLATE: Final = ROOT / "deploy" / "haproxy.cfg"
DATABASE: Final = "solitaire"
STARTUP_SECONDS: Final = 60.0
"""How long a process may take to answer after it is started (a loaded machine)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def answers(port: int) -> bool:
    """Whether something accepts connections on the loopback ``port``."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def alive(pid: int) -> bool:
    """Whether the process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def _postgres_binaries() -> Path:
    found = shutil.which("pg_ctl")
    if found:
        return Path(os.path.realpath(found)).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if not candidates:
        raise RuntimeError("PostgreSQL is not installed (make postgres)")
    return Path(candidates[-1]).parent


def _as_postgres(command: list[str]) -> list[str]:
    """initdb and postgres refuse to run as root: as root, run them as ``postgres``."""
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


@dataclass
class Cluster:
    """The processes of one cluster, started and stopped one by one or all together."""

    folder: Path = FOLDER
    proxy_port: int = 8000
    servers: int = 3
    redis: bool = True
    """False: no Redis; limits in each process's memory, races' changes through PostgreSQL."""
    per_address: int = 64
    """Connections one address may hold open at the proxy."""
    env: dict[str, str] = field(default_factory=dict)
    """More settings for the app servers (rate limits for a bench, say)."""
    postgres_options: str = ""
    """More ``postgres`` options (``-c fsync=off`` for throw-away test data)."""
    ports: dict[str, int] = field(default_factory=dict)
    migrated: bool = False
    _started: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict, repr=False)

    # -- names and places ------------------------------------------------------------------

    @property
    def app_names(self) -> list[str]:
        return [f"app-{number}" for number in range(1, self.servers + 1)]

    @property
    def url(self) -> str:
        """The site, through the proxy."""
        return f"http://127.0.0.1:{self.proxy_port}"

    @property
    def database_url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.ports['postgres']}/{DATABASE}"

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.ports['redis']}/0" if self.redis else ""

    def pid_file(self, name: str) -> Path:
        return self.folder / f"{name}.pid"

    def log_file(self, name: str) -> Path:
        return self.folder / f"{name}.log"

    def pid(self, name: str) -> int | None:
        """The running process ``name``'s PID, from its PID file; None when it is not running."""
        try:
            pid = int(self.pid_file(name).read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None
        return pid if alive(pid) else None

    # -- the whole -------------------------------------------------------------------------

    def up(self) -> None:
        """Start every process not running yet, and wait until the proxy sees every app
        server up."""
        self.folder.mkdir(parents=True, exist_ok=True)
        self._load_ports()
        self.ports.setdefault("postgres", free_port())
        if self.redis:
            self.ports.setdefault("redis", free_port())
        for name in self.app_names:
            self.ports.setdefault(name, free_port())
        self.ports["haproxy"] = self.proxy_port
        self._save_ports()
        self.start("postgres")
        if not self.migrated:
            self._migrate()
            self.migrated = True
        rest = (["redis"] if self.redis else []) + self.app_names
        for name in rest:  # together: each takes a few seconds to start
            self.start(name, wait=False)
        for name in rest:
            self._wait_for_port(name)
        self.start("haproxy")
        self.wait_until_up(*self.app_names)

    def down(self) -> None:
        """Stop every process: the proxy first, the database last."""
        self._load_ports()
        names = ["haproxy", *self._app_names_found(), "redis", "postgres"]
        for name in names:
            self.stop(name)

    def _app_names_found(self) -> list[str]:
        found = sorted(path.stem for path in self.folder.glob("app-*.pid"))
        return sorted(set(found) | set(self.app_names))

    # -- one process -----------------------------------------------------------------------

    def start(self, name: str, *, wait: bool = True) -> None:
        """Start process ``name`` (unless it runs), and wait until it takes connections
        (unless told not to)."""
        if self.pid(name) is not None:
            return
        if name == "postgres":
            self._start_postgres()
        elif name == "redis":
            self._start_redis()
        elif name == "haproxy":
            self._start_haproxy()
        elif name.startswith("app-"):
            self._start_app(name)
        else:
            raise ValueError(f"no process is called {name!r}")
        if wait:
            self._wait_for_port(name)

    def stop(self, name: str, how: signal.Signals = signal.SIGTERM, wait: float = 30.0) -> None:
        """Send ``how`` to process ``name`` (an app server: to its supervisor and its
        worker, as a machine's shutdown would) and wait until it has exited."""
        pid = self.pid(name)
        if pid is None:
            self.pid_file(name).unlink(missing_ok=True)
            return
        if name == "postgres" and how == signal.SIGTERM:
            how = signal.SIGINT  # PostgreSQL's "fast" shutdown: sessions ended, data flushed
        with contextlib.suppress(ProcessLookupError):
            if name.startswith("app-") and how == signal.SIGKILL:
                os.killpg(pid, how)  # the whole machine gone: supervisor and worker at once
            else:
                os.kill(pid, how)
        self._wait_for_exit(name, pid, wait)
        self.pid_file(name).unlink(missing_ok=True)

    def kill(self, name: str) -> None:
        """``kill -9`` process ``name`` (an app server: its supervisor and its worker)."""
        self.stop(name, signal.SIGKILL)

    def restart(self, name: str) -> None:
        """Restart ``name``; an app server as a rolling restart does: drained at the proxy
        (no new request goes to it; the ones under way finish), stopped (SIGTERM: it ends
        what is left), started again, and back at the proxy once its checks pass."""
        app = name.startswith("app-") and self.pid("haproxy") is not None
        if app:
            self.proxy(f"set server app/{name} state drain")
            self._wait_until_idle(name)
        self.stop(name)
        self.start(name)
        if app:
            self.proxy(f"set server app/{name} state ready")
            self.wait_until_up(name)

    def _wait_until_idle(self, name: str, within: float = 10.0) -> None:
        """Until the proxy has no request under way on ``name`` (event streams aside: the
        server ends those as it stops)."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline and self.stats(name).get("scur", "0") not in ("", "0"):
            time.sleep(0.02)

    def _wait_for_exit(self, name: str, pid: int, wait: float) -> None:
        process = self._started.get(name)
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if process is not None and process.pid == pid:
                if process.poll() is not None:
                    return
            elif not alive(pid):
                return
            time.sleep(0.02)
        raise TimeoutError(f"{name} ({pid}) did not exit within {wait:.0f} s")

    def _wait_for_port(self, name: str) -> None:
        port = self.ports[name]
        deadline = time.monotonic() + STARTUP_SECONDS
        while not answers(port):
            process = self._started.get(name)
            if process is not None and process.poll() is not None:
                raise RuntimeError(
                    f"{name} exited ({process.returncode}): see {self.log_file(name)}"
                )
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"{name} took no connection on {port}: see {self.log_file(name)}"
                )
            time.sleep(0.05)

    def _spawn(self, name: str, command: list[str], env: dict[str, str] | None = None) -> None:
        """``command`` as a process of its own session (its own "machine": a signal to the
        runner's terminal does not reach it), its output to its log, its PID to its file."""
        with open(self.log_file(name), "ab") as log:
            process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self._started[name] = process
        self.pid_file(name).write_text(f"{process.pid}\n")

    # -- each kind -------------------------------------------------------------------------

    def _start_postgres(self) -> None:
        binaries = _postgres_binaries()
        data = self.folder / "postgres"
        log = self.log_file("postgres")
        if os.geteuid() == 0:  # the server's user must reach its data and write its log
            for folder in (self.folder.parent, self.folder):
                folder.chmod(folder.stat().st_mode | 0o011)
        if not (data / "PG_VERSION").exists():
            data.mkdir(mode=0o700, exist_ok=True)
            if os.geteuid() == 0:
                shutil.chown(data, "postgres", "postgres")
            subprocess.run(
                _as_postgres([str(binaries / "initdb"), "-D", str(data), "-A", "trust",
                              "-U", "postgres", "-E", "UTF8", "--no-instructions",
                              *(["--no-sync"] if "fsync=off" in self.postgres_options else [])]),
                check=True, capture_output=True,
            )  # fmt: skip
        log.touch()
        if os.geteuid() == 0:
            shutil.chown(log, "postgres", "postgres")
        options = f"-p {self.ports['postgres']} -h 127.0.0.1 -k {data} {self.postgres_options}"
        subprocess.run(
            _as_postgres([str(binaries / "pg_ctl"), "-D", str(data), "-o", options.strip(),
                          "-l", str(log), "-w", "-t", str(int(STARTUP_SECONDS)), "start"]),
            check=True, capture_output=True,
        )  # fmt: skip
        pid = (data / "postmaster.pid").read_text().split()[0]
        self.pid_file("postgres").write_text(f"{pid}\n")
        self._started.pop("postgres", None)

    def _migrate(self) -> None:
        """Make the site's database (once) and bring its tables up to date."""
        from sqlalchemy import create_engine, text

        server = self.database_url.rsplit("/", 1)[0] + "/postgres"
        engine = create_engine(server, isolation_level="AUTOCOMMIT")
        try:
            with engine.connect() as connection:
                there = connection.execute(
                    text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": DATABASE}
                ).first()
                if there is None:
                    connection.execute(text(f"CREATE DATABASE {DATABASE}"))
        finally:
            engine.dispose()
        subprocess.run(
            [sys.executable, "-m", "app.cli", "migrate"],
            cwd=ROOT,
            env={**os.environ, "DATABASE_URL": self.database_url},
            check=True,
            capture_output=True,
        )

    def _start_redis(self) -> None:
        binary = shutil.which("valkey-server") or shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("Redis is not installed (make redis)")
        # Rate-limit counts and live changes only: nothing to keep on disk.
        self._spawn("redis", [binary, "--port", str(self.ports["redis"]), "--bind", "127.0.0.1",
                              "--save", "", "--appendonly", "no", "--dir", str(self.folder),
                              "--protected-mode", "yes"])  # fmt: skip

    def app_env(self) -> dict[str, str]:
        """The settings every app server runs with (each server's host and port aside)."""
        secret = self.folder / "secret_key"
        if not secret.exists():
            secret.write_text(secrets.token_urlsafe(32))
            secret.chmod(0o600)
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "SECRET_KEY": secret.read_text().strip(),  # one key: a cookie works on any server
            "BASE_URL": self.url,  # links name the proxy, never one server
            "FORWARDED_ALLOW_IPS": "127.0.0.1",  # the client's address as the proxy says
            "REDIS_URL": self.redis_url,
            "RATE_LIMIT_STORAGE": self.redis_url,
            **self.env,
        }
        env.pop("HOST", None)
        env.pop("PORT", None)
        return env

    def _start_app(self, name: str) -> None:
        command = [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1",
                   "--port", str(self.ports[name]), "--no-migrate"]  # fmt: skip
        self._spawn(name, command, self.app_env())

    def haproxy_config(self) -> str:
        """deploy/haproxy.cfg with this cluster's addresses."""
        servers = "\n".join(
            f"    server {name} 127.0.0.1:{self.ports[name]}" for name in self.app_names
        )
        servers += "\n" + "\n".join(
            f"    server {name}-backup 127.0.0.1:{self.ports[name]} backup no-check"
            for name in self.app_names
        )
        return Template(TEMPLATE.read_text()).substitute(
            streams="\n".join(
                f"    server {name} 127.0.0.1:{self.ports[name]} track app/{name}"
                for name in self.app_names
            )
            + "\n"
            + "\n".join(
                f"    server {name}-backup 127.0.0.1:{self.ports[name]} backup"
                for name in self.app_names
            ),
            socket=self.folder / "haproxy.sock",
            bind=f"127.0.0.1:{self.proxy_port}",
            per_address=self.per_address,
            host=f"127.0.0.1:{self.proxy_port}",
            servers=servers,
        )

    def _start_haproxy(self) -> None:
        binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
        if not Path(binary).exists():
            raise RuntimeError("HAProxy is not installed (make haproxy)")
        config = self.folder / "haproxy.cfg"
        config.write_text(self.haproxy_config())
        self._spawn("haproxy", [binary, "-db", "-f", str(config)])

    # -- the proxy's view ------------------------------------------------------------------

    def proxy(self, command: str) -> str:
        """One command on HAProxy's admin socket (``show stat``, ``set server …``)."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(5)
            sock.connect(str(self.folder / "haproxy.sock"))
            sock.sendall(command.encode() + b"\n")
            chunks = []
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode()

    def stats(self, name: str) -> dict[str, str]:
        """The proxy's figures for app server ``name`` (``show stat``'s columns)."""
        table = self.proxy("show stat").lstrip("# ")
        for row in csv.DictReader(io.StringIO(table)):
            if row.get("pxname") == "app" and row.get("svname") == name:
                return row
        return {}

    def states(self) -> dict[str, str]:
        """Each app server's state as the proxy sees it: ``UP``, ``DOWN``, ``UP 1/2`` …"""
        table = self.proxy("show stat").lstrip("# ")
        return {
            row["svname"]: row["status"]
            for row in csv.DictReader(io.StringIO(table))
            if row.get("pxname") == "app" and row["svname"] not in ("FRONTEND", "BACKEND")
        }

    def wait_until_up(self, *names: str, within: float = STARTUP_SECONDS) -> None:
        deadline = time.monotonic() + within
        while True:
            try:
                states = self.states()
            except OSError as error:  # the proxy's socket is not there yet
                states = {"proxy": str(error)}
            if all(states.get(name) == "UP" for name in names):
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"the proxy does not see them up: {states}")
            time.sleep(0.05)

    # -- the state file --------------------------------------------------------------------

    def _load_ports(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            kept = json.loads((self.folder / "cluster.json").read_text())
            for name, port in kept.items():
                self.ports.setdefault(name, int(port))

    def _save_ports(self) -> None:
        (self.folder / "cluster.json").write_text(json.dumps(self.ports, indent=1) + "\n")


@contextlib.contextmanager
def running(cluster: Cluster) -> Iterator[Cluster]:
    """``cluster`` up for the block, down after it (whatever happened)."""
    try:
        cluster.up()
        yield cluster
    finally:
        cluster.down()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.cluster", description=__doc__)
    parser.add_argument("command", choices=("up", "down", "status"))
    parser.add_argument("--servers", type=int, default=3)
    parser.add_argument("--port", type=int, default=int(os.environ.get("CLUSTER_PORT", 8000)))
    args = parser.parse_args(argv)
    cluster = Cluster(proxy_port=args.port, servers=args.servers)
    if args.command == "up":
        cluster.up()
        print(f"The site: {cluster.url} (HAProxy, {args.servers} app servers); logs in {FOLDER}")
    elif args.command == "down":
        cluster.down()
    else:
        cluster._load_ports()
        for name in ["haproxy", *cluster._app_names_found(), "redis", "postgres"]:
            pid = cluster.pid(name)
            print(f"{name:10} {'pid ' + str(pid) if pid else 'stopped'}")
        if cluster.pid("haproxy"):
            for name, state in cluster.states().items():
                print(f"{name:10} {state} at the proxy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
