"""``GET /health``, the proxy's check: 200 ``ok`` when the database answers, 503 when not."""

from __future__ import annotations

import socket

from fastapi.testclient import TestClient

from app.config import Settings
from app.store import Database
from app.web import create_app


def test_health_is_ok_when_the_database_answers(client: TestClient) -> None:
    answer = client.get("/health")
    assert answer.status_code == 200
    assert answer.text == "ok"
    assert answer.headers["cache-control"] == "no-store"


def test_health_is_503_when_the_database_does_not_answer() -> None:
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        url = f"postgresql+psycopg://nobody@127.0.0.1:{sock.getsockname()[1]}/none"
    db = Database(url)
    app = create_app(Settings(database_url=url, secret_key="test", host="testserver", port=80), db)
    try:
        with TestClient(app) as client:
            answer = client.get("/health")
        assert answer.status_code == 503
        assert answer.text == "database not answering"
    finally:
        db.dispose()
