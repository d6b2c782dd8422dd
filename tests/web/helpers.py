"""What the HTTP tests share: start a game and post an action, as a browser form would."""

from __future__ import annotations

import re
from typing import Final

import httpx
from fastapi.testclient import TestClient

HX: Final = {"HX-Request": "true"}
DEVANAGARI: Final = str.maketrans("0123456789", "".join(map(chr, range(0x966, 0x970))))
ARABIC_INDIC: Final = str.maketrans(
    "0123456789,", "".join(map(chr, range(0x660, 0x66A))) + "\u066c"
)
"""``"1,000".translate(ARABIC_INDIC)``: a number in the digits (and digit groups) a Hindi or
an Arabic reader may type."""
GAME_URL: Final = re.compile(r"/games/([\w-]+)$")


def start(client: TestClient, kind: str = "montana", deal: str = "1", **form: str) -> str:
    """Deal a new game; its id, read from the redirect to its page."""
    response = client.post("/games", data={"kind": kind, "deal": deal, **form})
    match = GAME_URL.search(response.headers["location"])
    assert match, response.headers["location"]
    return match.group(1)


def act(
    client: TestClient, game_id: str, action: str, version: int, **headers: str
) -> httpx.Response:
    return client.post(
        f"/games/{game_id}/actions",
        data={"action": action, "version": str(version)},
        headers=headers,
    )
