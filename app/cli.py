"""The ``solitaire`` command: serve the site, and read and write the engine's notations.

solitaire serve [--host H] [--port P] [--no-migrate]
solitaire deal KIND 7 [--variant V]   (KIND: a game of the registry, app.games)
solitaire moves KIND FILE        (FILE may be - for standard input)
solitaire solve KIND DEAL|FILE|-
solitaire classify KIND --deals 1-N [--variant V] [--budget-ms MS]
solitaire migrate
solitaire ratings [--until DATE]  (rate the days not rated yet, up to DATE or yesterday, UTC)
solitaire doctor                 (which solvers run here)
"""

from __future__ import annotations

import argparse
import functools
import logging
import os
import subprocess
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from app.config import get_settings, log_config, stock_parts
from app.games import GAMES, KINDS, PROOF_SEARCHES, game_kind, rules_for
from app.rules.protocol import InvalidPositionError, Verdict

if TYPE_CHECKING:
    from app.store import Database

# The service, the store and the demo are imported by the commands that use them:
# ``serve`` stays a small supervisor process (its workers import the site).


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        result: int = args.run(args)
    except (InvalidPositionError, ValueError, OSError) as error:
        print(f"solitaire: {error}", file=sys.stderr)
        return 2
    return result


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="solitaire", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(required=True, metavar="COMMAND")
    settings = get_settings()

    serve = commands.add_parser("serve", help="run the site (reads DATABASE_URL, HOST, PORT)")
    serve.add_argument("--host", default=settings.host)
    serve.add_argument("--port", type=int, default=settings.port)
    serve.add_argument("--workers", type=int, default=1)
    serve.add_argument("--no-migrate", action="store_true", help="do not apply migrations")
    serve.set_defaults(run=_serve)

    migrate = commands.add_parser("migrate", help="apply database migrations")
    migrate.set_defaults(run=_migrate)

    ratings = commands.add_parser(
        "ratings", help="rate the days (UTC) not rated yet: players and deals, Glicko-2"
    )
    ratings.add_argument(
        "--until", type=_day, default=None, help="the last day to rate, YYYY-MM-DD (yesterday)"
    )
    ratings.set_defaults(run=_ratings)

    deal = commands.add_parser("deal", help="print a deal's position text")
    deal.add_argument("kind", choices=sorted(GAMES))
    deal.add_argument("number", type=int)
    deal.add_argument("--variant", default=None)
    deal.set_defaults(run=_deal)

    moves = commands.add_parser("moves", help="print every legal move of a position")
    moves.add_argument("kind", choices=sorted(GAMES))
    moves.add_argument("file", type=argparse.FileType("r"), help="position text, - for stdin")
    moves.set_defaults(run=_moves)

    solve = commands.add_parser(
        "solve", help="solve a deal or a position: the verdict, then the moves"
    )
    solve.add_argument("kind", choices=sorted(GAMES))
    solve.add_argument("source", help="a deal number, a file of position text, or - for stdin")
    solve.add_argument("--budget-ms", type=int, default=10_000)
    solve.add_argument("--variant", default=None)
    solve.set_defaults(run=_solve)

    classify = commands.add_parser(
        "classify", help="prove deals winnable or impossible ahead of time (app/proofs/)"
    )
    classify.add_argument("kind", choices=sorted(GAMES))
    classify.add_argument("--deals", required=True, type=_deal_range, help="a range: 1-1000")
    classify.add_argument("--variant", default=None, help="one variant (default: every one)")
    classify.add_argument("--budget-ms", type=int, default=2_000, help="search time per deal")
    classify.add_argument("--folder", default=None, help="where the proofs go (app/proofs)")
    classify.add_argument(
        "--again", action="store_true", help="search deals already proved too (default: skip)"
    )
    classify.add_argument(
        "--fewest-cells",
        action="store_true",
        help="the fewest free cells each deal can be won with (a game with free cells)",
    )
    classify.set_defaults(run=_classify)

    verify = commands.add_parser(
        "verify", help="replay every stored game and report any that differs from its position"
    )
    verify.set_defaults(run=_verify)

    doctor = commands.add_parser("doctor", help="say which solvers run on this machine")
    doctor.set_defaults(run=_doctor)

    demo = commands.add_parser("seed-demo", help="add finished demo games with real histories")
    demo.add_argument("--games", type=int, default=1000)
    demo.add_argument("--players", type=int, default=None)
    demo.add_argument("--seed", type=int, default=1)
    demo.set_defaults(run=_seed_demo)
    return parser


def _serve(args: argparse.Namespace) -> int:
    """The site in ``--workers`` worker processes (one by default) under a supervisor: a
    worker that dies for any reason (killed, out of memory, a signal from a broken disk)
    is logged and replaced within a few seconds; a stored action was committed before it
    was answered, so none is lost."""
    import uvicorn

    from app.serving import Supervisor, listening_socket

    if not args.no_migrate:  # in a process of its own: the supervisor keeps none of it
        subprocess.run([sys.executable, "-m", "app.cli", "migrate"], check=True)
    # The workers' settings (read in each) name the address served: the site's own links.
    os.environ["HOST"], os.environ["PORT"] = args.host, str(args.port)
    settings = get_settings()
    stock = stock_parts(settings)
    proxies = [address.strip() for address in settings.forwarded_allow_ips.split(",")]
    proxies = [address for address in proxies if address]
    _raise_open_files_limit(settings.max_connections)
    config = uvicorn.Config(
        "app.main:app",
        host=args.host,
        port=args.port,
        workers=max(args.workers, 1),
        # Forwarded headers only from the proxies the operator names: anyone else could
        # forge an address (to slip past the per-address limits, or to lock a victim out).
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
        limit_concurrency=settings.max_connections,
        timeout_keep_alive=5,
        # On SIGTERM (a rolling restart) requests under way are finished; open event streams
        # are cut after this many seconds at most, and their pages reconnect elsewhere.
        timeout_graceful_shutdown=5,
        server_header=False,  # the software is not named: one header less on every answer
        http="h11",  # uvicorn's stock protocol; slow clients are the proxy's (app.serving)
        access_log=False,  # ours (app.web.access_log) hides the game ids
        log_config=log_config(stock),
    )
    for line in _engines():
        logging.getLogger("solitaire.serve").info("%s", line)
    Supervisor(config, sockets=[listening_socket(args.host, args.port)]).run()
    return 0


def _engines() -> list[str]:
    """Which solver each game runs here (a game's searches may say, as ``engine()``: e.g.
    a compiled library, or the Python search without it)."""
    lines = []
    for game in KINDS.values():
        engine = getattr(game.searches, "engine", None)
        lines.append(f"{game.rules.name} solver: {engine() if engine else 'the Python search'}")
    return lines


def _doctor(_: argparse.Namespace) -> int:
    """What runs the searches on this machine."""
    for line in _engines():
        print(line)
    return 0


def _raise_open_files_limit(connections: int) -> None:
    """Room for every connection served, plus the database, logs and solver pipes."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 2 * connections + 256
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def _migrate(_: argparse.Namespace) -> int:
    from app.store.migrate import upgrade

    upgrade(get_settings().database_url)
    return 0


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a day (YYYY-MM-DD): {text!r}") from None


def _ratings(args: argparse.Namespace) -> int:
    from app.service import ratings

    try:
        done = ratings.compute(db=_database(), until=args.until)
    except ratings.PeriodNotOver as error:
        print(f"solitaire: {error}; the last day that can be rated is yesterday", file=sys.stderr)
        return 2
    rated = [period for period in done if period.rated]
    for period in rated:
        print(
            f"{period.day.isoformat()}: games rated {period.games:,}, "
            f"players {period.players:,}, deals {period.deals:,}"
        )
    print(f"days rated: {len(rated)}" if rated else "every day is rated already")
    return 0


def _database() -> Database:
    from app.store import Database

    return Database(get_settings().database_url)


def _verify(_: argparse.Namespace) -> int:
    from app import service

    db = _database()
    try:
        checked, problems = service.verify(db=db)
    finally:
        db.dispose()
    for problem in problems:
        print(f"{problem.game_id}: {problem.problem}")
    verdict = f"{len(problems)} differ" if problems else "every one replays to its stored position"
    print(f"checked {checked} games: {verdict}")
    return 1 if problems else 0


def _seed_demo(args: argparse.Namespace) -> int:
    from app import demo, service

    db = _database()
    try:
        made = demo.seed(
            db=db, games=args.games, players=args.players, seed=args.seed, now=service.utcnow()
        )
    finally:
        db.dispose()
    print(f"added {made} finished demo games")
    return 0


def _solve(args: argparse.Namespace) -> int:
    game = game_kind(args.kind)
    rules = game.rules
    if args.source.isascii() and args.source.isdigit():
        position = rules.new_game(int(args.source), args.variant or rules.default_variant)
    elif args.source == "-":
        position = rules.parse(sys.stdin.read())
    else:
        with open(args.source) as file:
            position = rules.parse(file.read())
    result = game.searches().answer(position, args.budget_ms)
    print(result.verdict)
    for move in result.moves:
        print(move)
    return 0


def _deal_range(text: str) -> range:
    first, _dash, last = text.partition("-")
    if not first.isdigit() or not (last or first).isdigit():
        raise argparse.ArgumentTypeError(f"not a range of deals such as 1-1000: {text!r}")
    return range(int(first), int(last or first) + 1)


CLASSIFY_SAVE_EVERY = 1000
"""Deals classified between two writes of the file: an interrupted run keeps its work."""
PROGRESS_EVERY = 0.5
"""Seconds between two redraws of the progress bar."""


def _classify(args: argparse.Namespace) -> int:
    """Classify, with a progress bar and the time left on stderr and one ``N verdict``
    line a deal on stdout; a game proved on a library goes to packed files (two bits a
    deal), the others to line files."""
    import time

    from app.service import proofs

    rules = rules_for(args.kind)
    folder = Path(args.folder) if args.folder else None
    if args.fewest_cells:
        return _classify_cells(args, folder)
    packed_files = args.kind in PROOF_SEARCHES
    for variant in [args.variant] if args.variant else rules.variants:
        if packed_files:
            file = proofs.bits_path(args.kind, variant, folder)
            known = proofs.load(args.kind, variant, folder).classified()
        else:
            file = proofs.path(args.kind, variant, folder)
            known = dict(proofs.read(file).verdicts)
        header = f"solitaire classify {args.kind} --variant {variant} --budget-ms {args.budget_ms}"
        found: dict[int, Verdict] = {}
        counts = dict.fromkeys(proofs.VERDICTS, 0)
        wanted = [d for d in args.deals if args.again or known.get(d, "unknown") == "unknown"]

        save = functools.partial(_save, file, found, header, packed=packed_files)

        began = drawn = time.monotonic()
        for deal, verdict in proofs.classify(args.kind, variant, wanted, args.budget_ms):
            found[deal] = verdict
            counts[verdict] += 1
            print(f"{deal} {verdict}", flush=False)
            if len(found) % CLASSIFY_SAVE_EVERY == 0:
                save()
            if time.monotonic() - drawn >= PROGRESS_EVERY:
                drawn = time.monotonic()
                _progress(
                    f"{variant} " + proofs.progress_line(len(found), len(wanted), drawn - began)
                )
        save()
        _progress(
            f"{variant} " + proofs.progress_line(len(found), len(wanted), time.monotonic() - began),
            end="\n",
        )
        summary = ", ".join(f"{count} {verdict}" for verdict, count in counts.items())
        skipped = len(args.deals) - len(wanted)
        print(
            f"{args.kind} {variant}: {len(found)} deals: {summary} ({skipped} proved before)",
            file=sys.stderr,
        )
    return 0


def _save(file: Path, found: dict[int, Verdict], header: str, *, packed: bool) -> None:
    from app.service import proofs

    if packed:
        proofs.write_bits(file, found)
    else:
        proofs.write(file, found, header)


def _classify_cells(args: argparse.Namespace, folder: Path | None) -> int:
    """``--fewest-cells``: a game's deals solved with fewer free cells, one
    ``N cells`` line a deal (``N intractable`` when a proof ran past its budget)."""
    import time

    from app.games import CELLS_GAME, PROOF_SEARCHES
    from app.service import proofs

    if (args.kind, args.variant or CELLS_GAME[1]) != CELLS_GAME:
        raise ValueError(f"--fewest-cells is for {CELLS_GAME[0]} {CELLS_GAME[1]}")
    fcproofs = PROOF_SEARCHES[args.kind]
    if not fcproofs.available():
        raise ValueError("--fewest-cells needs fc-solve's library")
    file = proofs.cells_path(folder)
    old = proofs.read_cells(file)
    again = (None, proofs.INTRACTABLE, proofs.NOT_COMPUTED)
    wanted = [d for d in args.deals if args.again or old is None or old.value(d) in again]
    found: dict[int, int] = {}
    began = drawn = time.monotonic()
    for deal, fewest in fcproofs.fewest_cells(wanted, args.budget_ms):
        cells = proofs.INTRACTABLE if fewest is None else fewest
        found[deal] = cells
        print(f"{deal} {'intractable' if cells == proofs.INTRACTABLE else cells}")
        if len(found) % CLASSIFY_SAVE_EVERY == 0:
            proofs.write_cells(file, found)
        if time.monotonic() - drawn >= PROGRESS_EVERY:
            drawn = time.monotonic()
            _progress(
                "fewest cells " + proofs.progress_line(len(found), len(wanted), drawn - began)
            )
    proofs.write_cells(file, found)
    every = proofs.read_cells(file)
    if every is not None:  # the fewer-cells variants' verdicts follow
        fewest = {every.first + i: cells for i, cells in enumerate(every.values())}
        proofs.write_fewer_cells(fewest, folder)
    _progress(
        "fewest cells " + proofs.progress_line(len(found), len(wanted), time.monotonic() - began),
        end="\n",
    )
    return 0


def _progress(line: str, end: str = "") -> None:
    """Redraw the progress line on stderr (a terminal's line, rewritten in place)."""
    sys.stderr.write("\r" + line + end)
    sys.stderr.flush()


def _deal(args: argparse.Namespace) -> int:
    rules = rules_for(args.kind)
    variant = args.variant or rules.default_variant
    if variant not in rules.variants:
        raise ValueError(f"{rules.name} has no variant {variant!r}")
    sys.stdout.write(rules.new_game(args.number, variant).to_text())
    return 0


def _moves(args: argparse.Namespace) -> int:
    with args.file as file:
        position = rules_for(args.kind).parse(file.read())
    for move in position.legal_moves():
        print(move.notation)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
