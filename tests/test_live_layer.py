"""The races' live layer stays small and on stock parts (docs/architecture.md): its three
files within half the 1,277 lines of the layer they replaced, and nothing in the site
reaching into a server's private modules or writing to a transport."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIVE_LAYER = ("app/service/race_feed.py", "app/service/race_fanout.py", "app/web/race_stream.py")
BOUND = 1277 // 2  # 638: half of event_stream.py, race_feed.py and race_pages.py before
PRIVATE = ("uvicorn.protocols", "uvicorn.server", "uvicorn.lifespan", "h11")


def test_the_live_layer_is_within_half_of_the_layer_it_replaced() -> None:
    lines = {path: len((ROOT / path).read_text().splitlines()) for path in LIVE_LAYER}
    assert sum(lines.values()) <= BOUND, lines


def imported(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_no_module_of_the_site_imports_a_servers_private_modules() -> None:
    files = sorted((ROOT / "app").rglob("*.py"))
    assert len(files) > 100  # the check sees the site
    reaching = {
        str(path.relative_to(ROOT)): name
        for path in files
        for name in imported(path)
        if name.startswith(PRIVATE)
    }
    assert reaching == {}


def test_the_check_sees_a_private_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from uvicorn.protocols.http.h11_impl import RequestResponseCycle\n")
    assert any(name.startswith(PRIVATE) for name in imported(sample))
