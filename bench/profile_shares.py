"""Shares of a py-spy profile (``--format raw``, collapsed stacks) by layer.

    .venv/bin/python bench/profile_shares.py profile.txt

Each sample is charged to the first layer, from the top of its stack (the innermost
frame) down, whose name matches: where the time goes, not who asked for it.
"""

from __future__ import annotations

import sys
from collections import Counter

LAYERS = (
    ("gzip", ("gzip.py", "zlib")),
    ("render (Jinja2, templates)", ("jinja2", "templates/", ".html")),
    ("commit", ("commit", "_commit_impl")),
    ("SQLite (sqlite3 calls)", ("sqlite3", "do_execute", "_exec_driver", "execute (sqlite")),
    ("SQLAlchemy", ("sqlalchemy",)),
    ("rules engine", ("app/rules",)),
    ("idle / waiting", ("wait (threading", "select (selectors", "_worker (concurrent", "acquire")),
    ("starlette / fastapi / uvicorn", ("starlette", "fastapi", "uvicorn", "h11", "anyio")),
)


def layer(stack: str) -> str:
    frames = stack.split(";")
    for frame in reversed(frames):
        for name, needles in LAYERS:
            if any(needle in frame for needle in needles):
                return name
    return "other"


def main() -> None:
    counts: Counter[str] = Counter()
    with open(sys.argv[1], encoding="utf-8") as lines:
        for line in lines:
            stack, _, number = line.rstrip().rpartition(" ")
            if stack:
                counts[layer(stack)] += int(number)
    busy = sum(n for name, n in counts.items() if name != "idle / waiting")
    for name, n in counts.most_common():
        if name != "idle / waiting":
            print(f"{n / busy:6.1%}  {name}")
    print(f"({counts['idle / waiting']} idle samples left out, {busy} busy)")


if __name__ == "__main__":
    main()
