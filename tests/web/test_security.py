"""Hostile and malformed input: a readable refusal, the right status, nothing stored."""

from __future__ import annotations

import re
import time

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.exc import OperationalError

from app.config import Settings
from app.store import queries
from app.web.throttle import Throttle
from tests.conftest import FAST
from tests.web.helpers import HX, start


def limits(**chosen: str) -> Throttle:
    return Throttle(Settings(**{**FAST, **chosen}))


def history(client: TestClient, game_id: str) -> str:
    return client.get(f"/games/{game_id}/history").text


def test_security_headers_on_every_page(client: TestClient) -> None:
    game_id = start(client)
    for url in ("/", f"/games/{game_id}", "/stats", "/static/css/site.css"):
        headers = client.get(url).headers
        csp = headers["content-security-policy"]
        assert "script-src 'self'" in csp
        assert "frame-ancestors 'none'" in csp
        assert "unsafe-inline" not in csp
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "same-origin"
    assert "noindex" in client.get(f"/games/{game_id}").headers["x-robots-tag"]
    assert "x-robots-tag" not in client.get("/").headers


def test_pages_carry_no_inline_script(client: TestClient) -> None:
    page = client.get(f"/games/{start(client)}").text
    assert not re.search(r"<script(?![^>]*\bsrc=)", page)
    assert " onclick=" not in page
    assert "style=" not in page


@pytest.mark.parametrize(
    "headers",
    [
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
    ],
)
def test_cross_site_posts_are_refused_and_store_nothing(
    client: TestClient, headers: dict[str, str]
) -> None:
    game_id = start(client)
    response = client.post(
        f"/games/{game_id}/actions", data={"action": "5H C4", "version": "0"}, headers=headers
    )
    assert response.status_code == 403
    assert "another site" in response.text
    assert history(client, game_id) == ""
    assert client.post("/games", data={"kind": "montana"}, headers=headers).status_code == 403


def test_same_origin_posts_pass(client: TestClient) -> None:
    game_id = start(client)
    for headers in ({"Sec-Fetch-Site": "same-origin"}, {"Origin": "http://testserver"}, {}):
        version = len(history(client, game_id).splitlines())
        action = ["5H C4", "undo", "5H C4"][version]
        response = client.post(
            f"/games/{game_id}/actions",
            data={"action": action, "version": str(version)},
            headers=headers,
        )
        assert response.status_code == 303


def test_oversized_bodies_are_refused(client: TestClient) -> None:
    game_id = start(client)
    response = client.post(
        f"/games/{game_id}/actions", data={"action": "5H C4", "version": "0", "pad": "x" * 20_000}
    )
    assert response.status_code == 413
    assert "at most 16 KiB" in response.text
    assert history(client, game_id) == ""


def test_non_utf8_bytes_are_a_readable_422(client: TestClient) -> None:
    game_id = start(client)
    response = client.post(
        f"/games/{game_id}/actions",
        content=b"action=%FF%FE&version=0",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert response.status_code == 422
    assert history(client, game_id) == ""


@pytest.mark.parametrize(
    "game_id",
    ["x", "A" * 24, "0" * 200, "..%2F..%2Fetc", "%00", "games", "' OR 1=1 --", "é"],
)
def test_unknown_ids_get_the_same_404(client: TestClient, game_id: str) -> None:
    start(client)
    for url in (f"/games/{game_id}", f"/games/{game_id}/position", f"/games/{game_id}/replay"):
        response = client.get(url)
        assert response.status_code == 404, (url, response.text[-2000:])
        assert "There is no game at this address" in response.text


def test_game_ids_are_long_and_random(client: TestClient) -> None:
    ids = {start(client) for _ in range(20)}
    assert len(ids) == 20
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{24}", game_id) for game_id in ids)


def test_a_storage_error_is_503_and_changes_nothing(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = start(client)

    def disk_error(*args: object, **kwargs: object) -> bool:
        raise OperationalError("UPDATE games …", {}, Exception("disk I/O error"))

    monkeypatch.setattr(queries, "claim_version", disk_error)
    for headers in ({}, HX):
        response = client.post(
            f"/games/{game_id}/actions", data={"action": "5H C4", "version": "0"}, headers=headers
        )
        assert response.status_code == 503
        assert "nothing was changed" in response.text
        assert response.headers["retry-after"] == "5"
    monkeypatch.undo()
    assert history(client, game_id) == ""
    assert 'name="version" value="0"' in client.get(f"/games/{game_id}").text


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    action=st.one_of(
        st.text(max_size=40),
        st.sampled_from(["5H C4", "6S A13", "undo", "redeal", "resign", "3a", "all-home"]),
    ),
    version=st.one_of(st.integers(-5, 5).map(str), st.text(max_size=8)),
)
def test_random_actions_never_break_the_server(
    client: TestClient, action: str, version: str
) -> None:
    game_id = getattr(client, "_fuzz_game", None) or start(client)
    client._fuzz_game = game_id  # type: ignore[attr-defined]
    before = client.get(f"/games/{game_id}/position").text
    response = client.post(
        f"/games/{game_id}/actions", data={"action": action, "version": version}, headers=HX
    )
    assert response.status_code < 500
    after = client.get(f"/games/{game_id}/position").text
    if response.status_code != 200:
        assert after == before


def test_rate_limit_answers_429_politely(client: TestClient, app: FastAPI) -> None:
    app.state.throttle = limits(rate_limit_player="3/minute")
    game_id = start(client)
    for version, action in enumerate(["5H C4", "undo", "5H C4"]):
        response = client.post(
            f"/games/{game_id}/actions", data={"action": action, "version": str(version)}
        )
        assert response.status_code == 303
    response = client.post(
        f"/games/{game_id}/actions", data={"action": "undo", "version": "3"}, headers=HX
    )
    assert response.status_code == 429
    assert "wait a moment" in response.text
    assert 'name="version" value="3"' in response.text
    assert int(response.headers["retry-after"]) >= 1
    assert len(history(client, game_id).splitlines()) == 3


def test_a_refused_new_game_waits_before_its_429(client: TestClient, app: FastAPI) -> None:
    """A client that asks again at once gets its refusals no faster than one a delay
    (``RATE_LIMIT_REFUSAL_DELAY``, a second by default; the other tests set none)."""
    app.state.throttle = limits(
        rate_limit_new_game_address="1/minute", rate_limit_refusal_delay="0.5"
    )
    assert client.post("/games", data={"kind": "montana"}).status_code == 303
    began = time.monotonic()
    refused = client.post("/games", data={"kind": "montana"})
    assert refused.status_code == 429
    assert time.monotonic() - began >= 0.5
    assert Settings.model_fields["rate_limit_refusal_delay"].default == 1.0


def test_rate_limit_without_javascript_goes_back_to_the_game(
    client: TestClient, app: FastAPI
) -> None:
    """A page form over the limit is sent back to the game, which says why (a reload of a
    form's address would post it again)."""
    app.state.throttle = limits(rate_limit_player="1/minute")
    game_id = start(client)
    page = {"Sec-Fetch-Mode": "navigate", "Sec-Fetch-Site": "same-origin"}
    client.post(f"/games/{game_id}/actions", data={"action": "5H C4", "version": "0"})
    response = client.post(
        f"/games/{game_id}/actions", data={"action": "undo", "version": "1"}, headers=page
    )
    assert response.status_code == 303
    assert response.headers["location"].endswith(f"/games/{game_id}?slow=action")
    assert "wait a moment" in client.get(response.headers["location"]).text
    assert len(history(client, game_id).splitlines()) == 1


def test_rate_limit_per_address(client: TestClient, app: FastAPI) -> None:
    app.state.throttle = limits(rate_limit_address="2/minute")
    game_id = start(client)
    statuses = [
        client.post(
            f"/games/{game_id}/actions", data={"action": "undo", "version": "0"}
        ).status_code
        for _ in range(3)
    ]
    assert statuses == [422, 422, 429]


def test_the_access_log_hides_game_ids(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    game_id = start(client)
    with caplog.at_level("INFO", logger="solitaire.access"):
        client.get(f"/games/{game_id}")
        client.get(f"/players/join/{game_id}.secret")
    lines = [record.getMessage() for record in caplog.records]
    assert any(f'"GET /games/{game_id[:4]}…" 200' in line for line in lines), lines
    assert not any(game_id in line for line in lines)
    assert any('"GET /players/join/…" 400' in line for line in lines)


MARKUP = '<img src=x onerror="alert(1)">'


def test_markup_is_escaped_through_every_input_that_reaches_a_page(client: TestClient) -> None:
    game_id = start(client)
    pages = [
        client.post("/games", data={"kind": MARKUP}),
        client.post("/games", data={"kind": "montana", "variant": MARKUP}),
        client.post("/games", data={"kind": "montana", "deal": MARKUP}),
        client.post(f"/games/{game_id}/actions", data={"action": MARKUP, "version": "0"}),
        client.post(f"/games/{game_id}/actions", data={"action": "undo", "version": MARKUP}),
        client.get(f"/games/{game_id}", params={"pick": MARKUP, "sel": MARKUP}),
        client.get(f"/games/{game_id}", params={"hint": MARKUP}),
        client.get("/games", params={"game": MARKUP, "status": MARKUP}),
        client.get("/stats", params={"game": MARKUP, "who": MARKUP}),
        client.post("/settings", data={"auto_moves": MARKUP}),
    ]
    for response in pages:
        assert response.status_code < 500
        assert MARKUP not in response.text
        assert "<img src=x" not in response.text


# -- small contract gaps -------------------------------------------------------------------


def test_a_page_number_too_large_is_422_with_the_headers(client: TestClient) -> None:
    start(client)
    response = client.get("/games?page=461168601842738792")
    assert response.status_code == 422
    assert "content-security-policy" in response.headers


def test_control_characters_in_a_path_cannot_forge_log_lines(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level("INFO", logger="solitaire.access"):
        client.get("/x%0D%0A127.0.0.1%20%22GET%20/admin%22%20200%00")
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 1
    assert "\n" not in lines[0] and "\r" not in lines[0] and "\x00" not in lines[0]
    assert "/x\\r\\n127.0.0.1" in lines[0]


def test_a_chunked_body_too_large_is_413(client: TestClient) -> None:
    game_id = start(client)
    chunks = iter([b"action=" + b"x" * 10_000, b"y" * 10_000])
    response = client.post(
        f"/games/{game_id}/actions",
        content=chunks,
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert response.status_code == 413
    small = client.post(
        f"/games/{game_id}/actions",
        content=iter([b"action=undo&", b"version=0"]),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert small.status_code == 422  # read whole, then refused by the rules: nothing undone


def test_redirects_never_reflect_the_host_header(client: TestClient) -> None:
    response = client.post("/games", data={"kind": "montana"}, headers={"Host": "evil.example"})
    assert response.status_code == 303
    assert response.headers["location"].startswith("/games/")


def test_with_a_base_url_other_hosts_are_refused(database_url: str) -> None:
    settings = Settings(
        database_url=database_url,
        secret_key="s",
        base_url="https://solitaire.example",
        **FAST,
    )
    from app.web import create_app

    app = create_app(settings)
    with TestClient(app, base_url="https://solitaire.example") as site:
        assert site.get("/").status_code == 200
        # The site's own links are paths: no host, whatever the request said.
        assert 'href="/static/' in site.get("/").text
        assert site.get("/", headers={"Host": "evil.example"}).status_code == 400
    app.state.db.dispose()


def test_with_a_base_url_links_are_built_from_it(database_url: str) -> None:
    """Behind a proxy that ends TLS the app sees http: links still say the configured
    https origin, and a game's resume link (copied to another device) with them."""
    settings = Settings(
        database_url=database_url, secret_key="s", base_url="https://solitaire.example", **FAST
    )
    from app.web import create_app

    app = create_app(settings)
    with TestClient(app, base_url="http://solitaire.example", follow_redirects=False) as site:
        location = site.post("/games", data={"kind": "montana", "deal": "1"}).headers["location"]
        page = site.get(location).text
        assert 'value="https://solitaire.example/games/' in page
        assert "http://solitaire.example" not in page
    app.state.db.dispose()


def test_head_answers_like_get_without_a_body(client: TestClient) -> None:
    game_id = start(client)
    for url in ("/", f"/games/{game_id}", "/games", "/stats"):
        response = client.head(url)
        assert response.status_code == 200, url
        assert response.content == b""
        assert "content-security-policy" in response.headers


def test_new_games_are_rate_limited(client: TestClient, app: FastAPI) -> None:
    app.state.throttle = limits(rate_limit_new_game_address="3/minute")
    statuses = [client.post("/games", data={"kind": "montana"}).status_code for _ in range(4)]
    assert statuses == [303, 303, 303, 429]


def test_searches_are_rate_limited_per_player(client: TestClient, app: FastAPI) -> None:
    game_id = start(client, kind="freecell")
    app.state.throttle = limits(rate_limit_search_player="2/minute")
    statuses = [client.post(f"/games/{game_id}/hint", headers=HX).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    assert client.post(f"/games/{game_id}/solution", headers=HX).status_code == 429
    assert client.get(f"/games/{game_id}/solution?step=1").status_code == 429  # would search
    assert client.get(f"/games/{game_id}/solution").status_code == 200  # asks: no search
    app.state.throttle = limits(rate_limit_search_player="1/minute")
    assert client.post(f"/games/{game_id}/solution", headers=HX).status_code == 303
    steps = [client.get(f"/games/{game_id}/solution?step={n}").status_code for n in range(5)]
    assert steps == [200] * 5  # stepping through the kept line is not asking again


def test_a_nul_byte_in_any_address_is_refused_not_failed(client: TestClient, app: FastAPI) -> None:
    """PostgreSQL refuses text holding a NUL byte: no route may hand one to the store (a
    503 "try again" for an address that can never name anything)."""
    start(client)
    seen = 0
    for path, operations in app.openapi()["paths"].items():
        if "{" not in path or "get" not in operations:
            continue
        url = re.sub(r"\{[^}]+\}", "%00", path)
        response = client.get(url)
        assert 400 <= response.status_code < 500, (url, response.status_code)
        seen += 1
    assert seen >= 10
