"""Every field and query parameter that takes a number, fed long, signed, non-ASCII and
exponent digits: a refusal (4xx) or an answer, never a server error.

The fields, from the routes: a new game's ``deal`` (home page and, with ``back``, under a
game), the game page's ``baddeal`` and ``fewer``, My games' ``page``, the replay's,
solution's and watch page's ``step``, the watch page's ``since``, a move's ``version`` and
``held``, a restart's ``version``, and a deal's address (``/deals/{kind}/{number}``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import quote

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.helpers import ARABIC_INDIC, DEVANAGARI, HX, start

DIGITS = "".join(
    chr(zero + n) for zero in (0x30, 0x660, 0x966, 0x6F0, 0xFF10, 0x1D7CE) for n in range(10)
)
"""ASCII, Arabic-Indic, Devanagari, Extended Arabic-Indic, fullwidth, mathematical bold."""
SIGNS = ",._ +-eE٬#²½\u00a0\u202f\u066b∞"

NUMBERS = st.one_of(
    st.text(alphabet=DIGITS + SIGNS, max_size=40),
    st.integers(min_value=-(10**40), max_value=10**40).map(str),
    st.builds(lambda m, e: f"{m}e{e}", st.integers(-(10**30), 10**30), st.integers(-400, 400)),
    st.integers(min_value=17, max_value=60).map(lambda n: "9" * n),
    st.sampled_from(["1e309", "NaN", "inf", "-0", "0x10", "+17", "\uff11\uff17"]),
    st.sampled_from(["1,000", "10,00,001", "17"]).map(lambda n: n.translate(DEVANAGARI)),
    st.sampled_from(["1,000", "1000001", "17"]).map(lambda n: n.translate(ARABIC_INDIC)),
)

Call = Callable[[TestClient, str, str], httpx.Response]


def _game(client: TestClient) -> str:
    game_id = start(client, "freecell", "1")
    client.post(f"/games/{game_id}/actions", data={"action": "3a", "version": "0"})
    return game_id


def _watch_token(client: TestClient, game_id: str) -> str:
    client.post(f"/games/{game_id}/share")
    found = re.search(r"/watch/([A-Za-z0-9_-]{24})", client.get(f"/games/{game_id}/share").text)
    assert found
    return found.group(1)


FIELDS: dict[str, Call] = {
    "deal": lambda c, g, n: c.post("/games", data={"kind": "freecell", "deal": n}),
    "deal (under a game)": lambda c, g, n: c.post(
        "/games", data={"kind": "freecell", "deal": n, "back": g}
    ),
    "deal (winnable)": lambda c, g, n: c.post(
        "/games", data={"kind": "montana", "deal": n, "winnable": "1"}
    ),
    "baddeal": lambda c, g, n: c.get(f"/games/{g}", params={"baddeal": n}),
    "fewer": lambda c, g, n: c.get(f"/games/{g}", params={"fewer": f"{n}-{n}"}),
    "fewer (held)": lambda c, g, n: c.get(f"/games/{g}", params={"fewer": f"1-{n}"}),
    "page": lambda c, g, n: c.get("/games", params={"page": n}),
    "replay step": lambda c, g, n: c.get(f"/games/{g}/replay", params={"step": n}),
    "solution step": lambda c, g, n: c.get(f"/games/{g}/solution", params={"step": n}),
    "version": lambda c, g, n: c.post(
        f"/games/{g}/actions", data={"action": "4b", "version": n}, headers=HX
    ),
    "held": lambda c, g, n: c.post(
        f"/games/{g}/actions",
        data={"source": "4", "target": "b", "version": "1", "held": n},
        headers=HX,
    ),
    "held (no JavaScript)": lambda c, g, n: c.post(
        f"/games/{g}/actions", data={"source": "4", "target": "b", "version": "1", "held": n}
    ),
    "restart version": lambda c, g, n: c.post(f"/games/{g}/restart", data={"version": n}),
    "deal address": lambda c, g, n: c.get(f"/deals/freecell/{quote(n, safe='')}"),
}


@pytest.mark.parametrize("field", list(FIELDS))
def test_no_number_field_answers_with_a_server_error(client: TestClient, field: str) -> None:
    game_id = _game(client)
    call = FIELDS[field]

    @given(text=NUMBERS)
    @settings(
        max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    def feed(text: str) -> None:
        response = call(client, game_id, text)
        assert response.status_code < 500, (field, text, response.text[:300])

    feed()


@pytest.mark.parametrize("query", ["step", "since"])
def test_no_watch_number_answers_with_a_server_error(client: TestClient, query: str) -> None:
    token = _watch_token(client, _game(client))

    @given(text=NUMBERS)
    @settings(
        max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    def feed(text: str) -> None:
        response = client.get(f"/watch/{token}", params={query: text}, headers=HX)
        assert response.status_code < 500, (query, text, response.text[:300])

    feed()


@pytest.mark.parametrize("digits", [25, 26, 40, 64])
def test_a_deal_number_of_many_digits_is_refused_with_the_range(
    client: TestClient, digits: int
) -> None:
    game_id = _game(client)
    typed = "9" * digits
    home = client.post("/games", data={"kind": "freecell", "deal": typed})
    assert home.status_code == 422
    assert "is not a deal number: deals run from 1 to 1,000,000." in home.text
    back = client.post("/games", data={"kind": "freecell", "deal": typed, "back": game_id})
    assert back.status_code == 303
    page = client.get(back.headers["location"])
    assert page.status_code == 200
    assert "deals run from 1 to 1,000,000." in page.text
