"""Configuration from the environment (and a ``.env`` file), in one place."""

from __future__ import annotations

import os
import secrets
from functools import lru_cache
from pathlib import Path
from typing import Final

from pydantic import PositiveInt, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent
"""The project folder: templates/, static/, migrations/ live here."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = "sqlite:///data/solitaire.db"
    """SQLAlchemy URL; a relative SQLite path is under the working folder."""
    host: str = "127.0.0.1"
    port: int = 8000
    secret_key: str = ""
    """Signs the player cookie. Empty: read or create ``data/secret_key``."""
    secure_cookies: bool = False
    """Mark cookies ``Secure`` (set it behind HTTPS)."""
    rate_limit_player: str = "20/second"
    """Actions one player may post (``limits`` notation); a person never gets near it."""
    rate_limit_address: str = "1200/minute"
    """Actions one address may post, all players behind it together."""
    rate_limit_search_player: str = "20/minute"
    """Hints, "Still winnable?" and solutions one player may ask for."""
    rate_limit_search_address: str = "120/minute"
    rate_limit_new_game_player: str = "20/minute"
    """New games one player may start."""
    rate_limit_new_game_address: str = "60/minute"
    rate_limit_replay_player: str = "300/minute"
    """Replay steps and history exports one player may ask for: a replay played "fast"
    asks four steps a second."""
    rate_limit_replay_address: str = "1200/minute"
    rate_limit_write_player: str = "30/minute"
    """Other writes one player may make: watch links made and revoked, display names."""
    rate_limit_write_address: str = "120/minute"
    rate_limit_new_player_address: str = "60/minute"
    """Players one address may make (a browser without a cookie, saving a setting)."""
    rate_limit_refusal_delay: float = 1.0
    """Seconds a refused search, new game or replay step waits before its 429 (without a
    thread): a client that asks again at once cannot make the server answer refusals as
    fast as it can send."""
    rate_limit_storage: str = ""
    """Where the rate limits count: empty for each process's memory, or a shared store the
    ``limits`` library speaks (``redis://host:6379``, Redis or Valkey) for several servers."""
    base_url: str = ""
    """The site's own address (``https://solitaire.example``): absolute links are built
    from it and requests for any other ``Host`` are refused. Empty: links use the host
    and port the server was started on (never the request's ``Host`` header), and
    redirects are relative either way."""
    forwarded_allow_ips: str = ""
    """Addresses of the reverse proxies whose ``X-Forwarded-For``/``-Proto`` are believed
    (comma-separated, ``*`` for any). Empty: no proxy is trusted, the peer's address counts."""
    max_connections: int = 1000
    """Connections served at once by one server process; a request past them is answered
    503 at once (uvicorn's ``limit_concurrency``). Slow clients and one address's share of
    the connections are bounded by the reverse proxy in front (docs/deploying.md)."""
    ratings_daily: bool = True
    """Rate each day (UTC) once it is over, in a task of each server: at start-up, then
    daily (off: only ``solitaire ratings`` rates; several servers never rate a day twice)."""
    solver_workers: int = 1
    """Processes that run searches (hints, verdicts, solutions), apart from the requests."""
    solver_queue: int = 4
    """Different searches waiting or running at once; one more is told "busy, ask again"."""
    solver_answer_ms: int = 15_000
    """Time a verdict's or a solution's search may take (the page asks again meanwhile)."""
    solver_hint_wait: float = 2.5
    """Seconds a hint waits for its search before saying it is still thinking."""
    solver_solution_wait: float = 3.0
    """Seconds "Show solution" waits for its search before saying it is still thinking."""
    solver_par_wait: float = 1.0
    """Seconds a deal's records page or a win waits for the deal's par (its shortest line)
    to be found; past it the page says the par is being worked out."""
    race_streams: int = 0
    """Races' live event streams one server process keeps open at once; one more is
    answered 503 (the page falls back to asking every few seconds). 0: ``MAX_CONNECTIONS``
    less its reserve (:func:`stream_room`); more than that is refused at start: streams
    never take the connections a move needs."""
    race_streams_per_address: int = 32
    """Races' event streams one address may hold open at once (0: no cap beyond the
    server's own); the proxy in front caps an address's connections."""
    race_stream_interval_ms: int = 50
    """A race's changes within this many milliseconds reach its live pages together: what
    its streams cost stays bounded however fast its racers move."""
    race_idle_minutes: PositiveInt = 30
    """A race under way in which nobody has moved for this many minutes is ended (its
    result kept as the games stand)."""
    redis_url: str = ""
    """Redis (or Valkey) for races' live changes between servers (``redis://host:6379``).
    Empty: PostgreSQL's own notifications on PostgreSQL, else within the process."""
    stock_parts: str = ""
    """The framework's stock parts to run instead of the site's own, comma-separated (see
    :data:`STOCK_PARTS`; docs/architecture.md has each one's measured cost): for
    measuring, or to rule out the site's part when a fault is looked for."""
    pseudo_locale: bool = False
    """Offer the ``qps`` pseudo-locale (every translated message marked): tests only."""

    @model_validator(mode="after")
    def _streams_leave_room(self) -> Settings:
        room = stream_room(self.max_connections)
        if self.race_streams > room:
            raise ValueError(
                f"RACE_STREAMS ({self.race_streams}) must leave a reserve of MAX_CONNECTIONS "
                f"({self.max_connections}) for moves and pages: at most {room}"
            )
        return self


def stream_room(max_connections: int) -> int:
    """Race streams a server may hold: its connections less a reserve for other requests
    (a fifth, at least 10)."""
    return max(0, max_connections - max(10, max_connections // 5))


def race_stream_caps(settings: Settings) -> tuple[int, int]:
    """Race streams a server holds, in all and from one address (0: no cap)."""
    room = settings.race_streams or stream_room(settings.max_connections)
    per_address = settings.race_streams_per_address
    return room, min(per_address, room) if per_address else room


STOCK_PARTS: Final = frozenset(
    {"move_route", "driver", "group_commit", "compression", "log_writer"}
)
"""What ``STOCK_PARTS`` may name: the move's route and form read by FastAPI
(``move_route``); the hot path's statements run through SQLAlchemy's ``Connection``
(``driver``); a transaction and commit for each SQLite writer (``group_commit``); Starlette's
``GZipMiddleware`` (``compression``); the standard library's ``StreamHandler`` for the log
(``log_writer``)."""


def stock_parts(settings: Settings) -> frozenset[str]:
    """The stock parts ``settings`` asks for; an unknown name is an error at start-up."""
    names = frozenset(part.strip() for part in settings.stock_parts.split(",") if part.strip())
    if unknown := names - STOCK_PARTS:
        raise ValueError(f"STOCK_PARTS names no such part: {', '.join(sorted(unknown))}")
    return names


WILDCARDS: Final = frozenset({"", "0.0.0.0", "::", "[::]"})


def site_address(settings: Settings) -> str:
    """Where the site's absolute links point: ``BASE_URL``, else the host and port it is
    configured to serve on (``http://127.0.0.1:8000``), else (a server on every address)
    nothing: links are paths. Never the ``Host`` header a client sent."""
    if settings.base_url:
        return settings.base_url
    if settings.host in WILDCARDS:
        return ""
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    return f"http://{host}" if settings.port == 80 else f"http://{host}:{settings.port}"


# Cached: the one settings object of the process (no arguments).
@lru_cache
def get_settings() -> Settings:
    return Settings()


def secret_key(settings: Settings) -> str:
    """The configured secret, or one kept in ``data/secret_key`` (made on first use)."""
    if settings.secret_key:
        return settings.secret_key
    path = Path("data") / "secret_key"
    if not path.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as file:
            file.write(secrets.token_urlsafe(32))
    return path.read_text().strip()


LOG_CONFIG: Final[dict[str, object]] = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
    },
    "handlers": {
        "stderr": {"()": "app.logs.BackgroundStderr", "formatter": "plain"},
    },
    "loggers": {
        "uvicorn": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
        "solitaire": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
    },
}
"""Logging for ``solitaire serve``: uvicorn's messages and the access log
(:mod:`app.web.access_log`), to stderr, written by a thread of their own
(:class:`app.logs.BackgroundStderr`)."""


def log_config(parts: frozenset[str]) -> dict[str, object]:
    """:data:`LOG_CONFIG`, or with ``log_writer`` among the stock ``parts``, the same with
    the standard library's ``StreamHandler`` writing each line to stderr as it comes."""
    if "log_writer" not in parts:
        return LOG_CONFIG
    stock = {"class": "logging.StreamHandler", "formatter": "plain", "stream": "ext://sys.stderr"}
    return {**LOG_CONFIG, "handlers": {"stderr": stock}}
