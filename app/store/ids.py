"""Game and player ids: random, URL-safe, and of one shape everywhere (the service, the
access log's redaction and the demo data read it from here)."""

from __future__ import annotations

import re
import secrets
from typing import Final

GAME_ID_BYTES: Final = 18
"""144 random bits, 24 URL-safe characters."""
PLAYER_ID_BYTES: Final = 16
ID_CHARACTER: Final = "[A-Za-z0-9_-]"
"""The characters of an id (URL-safe base64)."""
GAME_ID_PATTERN: Final = ID_CHARACTER + "{1,64}"
"""Every game id has this shape: any other text names no game without asking the store."""
GAME_ID_SHAPE: Final = re.compile(GAME_ID_PATTERN)


def new_game_id() -> str:
    return secrets.token_urlsafe(GAME_ID_BYTES)


def new_player_id() -> str:
    return secrets.token_urlsafe(PLAYER_ID_BYTES)
