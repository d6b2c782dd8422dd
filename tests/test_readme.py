"""The README is for players and operators: short, opening with the two commands, and
every file it links to is there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_is_at_most_300_lines() -> None:
    assert len(README.splitlines()) <= 300


def test_the_readme_opens_with_the_two_commands() -> None:
    block = README.split("```sh\n", 1)[1].split("```", 1)[0]
    assert [line.split()[:2] for line in block.splitlines()] == [
        ["make", "run"],
        ["make", "test"],
    ]


def test_every_file_the_readme_links_to_exists() -> None:
    links = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", README)
    assert links
    missing = [link for link in links if not (ROOT / link).exists()]
    assert missing == []
