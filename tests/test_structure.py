"""One home per game: only the registry names a game outside the game's own package,
templates, script and style, and every game brings every file the recipe lists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.games import KINDS

ROOT = Path(__file__).resolve().parent.parent
REGISTRY = ROOT / "app" / "games" / "__init__.py"
TEMPLATES = (
    "_board.html",
    "_controls.html",
    "_status.html",
    "_pick_note.html",
    "_help.html",
    "_keys.html",
    "_start.html",
    "_stats_figure.html",
    "_stats_note.html",
    "rules.html",
)
MODULES = ("__init__.py", "rules.py", "solver.py", "hints.py", "view.py", "words.py")


def own_files(kind: str) -> set[Path]:
    return {
        *(ROOT / "app" / "games" / kind).rglob("*"),
        *(ROOT / "templates" / kind).rglob("*"),
        ROOT / "static" / "js" / f"{kind}.js",
        ROOT / "static" / "css" / f"{kind}.css",
    }


def shared_files() -> list[Path]:
    own = set().union(*(own_files(kind) for kind in KINDS))
    places = [ROOT / "app", ROOT / "templates", ROOT / "static" / "js", ROOT / "static" / "css"]
    return sorted(
        path
        for place in places
        for path in place.rglob("*")
        if path.is_file()
        and path.suffix in {".py", ".html", ".js", ".css"}
        and path not in own
        and path != REGISTRY
    )


def test_no_shared_file_names_a_game() -> None:
    names = re.compile("|".join(KINDS), re.IGNORECASE)
    naming = [
        str(path.relative_to(ROOT))
        for path in shared_files()
        if names.search(path.read_text(encoding="utf-8"))
    ]
    assert not naming, f"only the registry may name a game outside its own files: {naming}"


def test_the_check_sees_the_shared_files() -> None:
    shared = {str(path.relative_to(ROOT)) for path in shared_files()}
    assert {"app/web/pages.py", "templates/_game.html", "static/js/site.js"} <= shared


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_game_brings_the_files_of_the_recipe(kind: str) -> None:
    wanted = [
        *(Path("app/games") / kind / name for name in MODULES),
        *(Path("templates") / kind / name for name in TEMPLATES),
        Path("static/js") / f"{kind}.js",
        Path("static/css") / f"{kind}.css",
    ]
    missing = [str(path) for path in wanted if not (ROOT / path).is_file()]
    assert not missing
    assert KINDS[kind].kind == kind
