"""The access log keeps only the first characters of what opens a game, a race or a
watch link: anyone reading the log could otherwise play, join or watch."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests.web.helpers import start


def test_the_access_log_cuts_race_and_watch_tokens_as_game_ids(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    game_id = start(client)
    client.post(f"/games/{game_id}/share")
    watch = re.search(r"/watch/([A-Za-z0-9_-]+)", client.get(f"/games/{game_id}/share").text)
    assert watch is not None
    race = client.post("/races", data={"kind": "montana", "deal": "7"}, follow_redirects=False)
    token = race.headers["location"].rsplit("/", 1)[1]
    with caplog.at_level("INFO", logger="solitaire.access"):
        client.get(f"/watch/{watch.group(1)}")
        client.get(f"/races/{token}")
        client.post(f"/races/{token}/join")
    lines = [record.getMessage() for record in caplog.records]
    assert any(f'"GET /watch/{watch.group(1)[:4]}…" 200' in line for line in lines), lines
    assert any(f'"GET /races/{token[:4]}…" 200' in line for line in lines), lines
    assert any(f'"POST /races/{token[:4]}…/join"' in line for line in lines), lines
    for secret in (watch.group(1), token):
        assert not any(secret in line for line in lines), lines
