"""Shares of a py-spy profile (``--format raw``, collapsed stacks) by layer.

    .venv/bin/python bench/profile_shares.py profile.txt

Each sample is charged to the first layer, from the innermost frame outwards, whose name
matches: where the time goes, not who asked for it. Threads py-spy sees idle are left out
by py-spy itself; those parked in Python waits are counted as "idle" here and left out.
"waiting for the write lock" is a writer queued behind another's transaction.
"""

from __future__ import annotations

import sys
from collections import Counter

LAYERS = (
    ("waiting for the write lock", ("FairLock", "BEGIN IMMEDIATE", "on_begin")),
    ("idle", ("Condition.wait", "Queue.get", "EpollSelector.select", "_worker (concurrent")),
    ("gzip", ("gzip.py", "zlib")),
    ("render (Jinja2, templates)", ("jinja2", "templates/", ".html", "markupsafe")),
    ("commit", ("do_commit", "_commit_impl")),
    ("SQLAlchemy ORM", ("sqlalchemy/orm",)),
    ("SQLAlchemy Core and sqlite3", ("sqlalchemy", "sqlite3")),
    ("rules engine", ("app/rules",)),
    ("starlette / fastapi / uvicorn / h11", ("starlette", "fastapi", "uvicorn", "h11", "anyio")),
)


def layer(stack: str) -> str:
    frames = stack.split(";")
    name, needles = LAYERS[0]  # a writer waiting, wherever in its stack the wait is
    if any(needle in frame for frame in frames for needle in needles):
        return name
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
    busy = sum(n for name, n in counts.items() if name != "idle")
    for name, n in counts.most_common():
        if name != "idle":
            print(f"{n / busy:6.1%}  {name}")
    print(f"({counts['idle']} idle samples left out, {busy} counted)")


if __name__ == "__main__":
    main()
