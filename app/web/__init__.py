"""The web layer: FastAPI routes that parse the request, call the service and render."""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.telemetry import TelemetryConfig
from itsdangerous import URLSafeSerializer
from starlette.middleware.gzip import GZipMiddleware

from app import serving
from app.config import (
    ROOT,
    Settings,
    get_settings,
    race_stream_caps,
    secret_key,
    site_address,
    stock_parts,
)
from app.service import race_feed, ratings, solvers
from app.service import races as race_service
from app.store import Database
from app.web import errors
from app.web.access_log import AccessLog
from app.web.compression import FRAGMENT_LEVEL, MINIMUM_SIZE, GZip
from app.web.language import Language
from app.web.language import router as language_router
from app.web.routes import (
    deals,
    games,
    health,
    home,
    names,
    players,
    races,
    review,
    rules,
    stats,
    tournaments,
    watch,
)
from app.web.routes import settings as settings_routes
from app.web.security import Security
from app.web.templating import make_templates
from app.web.throttle import Throttle


def create_app(settings: Settings | None = None, db: Database | None = None) -> FastAPI:
    """The site, on ``db`` (the one ``settings.database_url`` names by default)."""
    settings = settings or get_settings()
    stock = stock_parts(settings)
    pool = solvers.sized(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        feed.start()  # races' changes heard from the start (from other servers too)
        serving.on_stop(feed.close_streams)  # a stop ends streams before draining
        rating = (
            asyncio.create_task(ratings.daily(app.state.db)) if settings.ratings_daily else None
        )
        yield
        if rating is not None:
            rating.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await rating
        await feed.aclose()  # open streams end cleanly: pages reconnect
        pool.close()  # the solver processes end with the site

    # No OpenTelemetry: the site exports no traces, metrics or logs through it, and FastAPI
    # would otherwise ask the global providers about each request.
    off: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}
    app = FastAPI(
        title="Solitaire", docs_url=None, redoc_url=None, lifespan=lifespan, telemetry=off
    )
    app.state.settings = settings
    app.state.db = db or Database(settings.database_url, stock=stock)
    app.state.templates = make_templates(site_address(settings))
    app.state.cookie_signer = URLSafeSerializer(secret_key(settings), salt="player")
    app.state.throttle = Throttle(settings)
    app.state.solvers = pool
    max_streams, per_address = race_stream_caps(settings)
    feed = race_feed.install(
        app.state.db,
        redis_url=settings.redis_url,
        max_streams=max_streams,
        per_address=per_address,
        interval=settings.race_stream_interval_ms / 1000,
    )
    race_service.configure(idle_minutes=settings.race_idle_minutes)
    weakref.finalize(app, pool.close)  # an app let go of (in tests) lets its pool go
    # A request is matched against the routes in order: the move's first, then the games'
    # (moves and game pages are most of what comes). Inserted before any request is
    # matched, so FastAPI's list of candidates is made with it.
    if "move_route" in stock:  # FastAPI's route, its form read by FastAPI
        app.include_router(games.stock_move_router)
    else:
        app.router.routes.insert(0, games.MOVE_ROUTE)
    app.include_router(games.router)
    app.include_router(review.router)
    app.include_router(home.router)
    app.include_router(language_router)
    app.include_router(players.router)
    app.include_router(stats.router)
    app.include_router(rules.router)
    app.include_router(settings_routes.router)
    app.include_router(deals.router)
    app.include_router(names.router)
    app.include_router(watch.router)
    app.include_router(races.router)
    app.include_router(health.router)
    app.include_router(tournaments.router)
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    errors.install(app)
    if "compression" in stock:  # Starlette's, one level for every answer
        app.add_middleware(GZipMiddleware, minimum_size=MINIMUM_SIZE, compresslevel=FRAGMENT_LEVEL)
    else:
        app.add_middleware(GZip)
    app.add_middleware(Security, base_url=settings.base_url)
    app.add_middleware(AccessLog)
    # Outermost: every answer, refusals of the layers inside included, speaks the
    # player's language.
    app.add_middleware(Language, pseudo=settings.pseudo_locale)
    return app
