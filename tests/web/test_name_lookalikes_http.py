"""No display name can pass for another (POST /settings/name): names are kept NFKC, unique
by their confusable skeleton (Unicode TR39), hold no stack of marks, and are never one of
the site's own words in any of its languages. Each refusal in the player's language, with
and without htmx, nothing stored."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape
from sqlalchemy import select

from app.store import Database
from app.store.models import PlayerRecord
from tests.web.helpers import HX, start

CYRILLIC_ADA = "\u0410d\u0430"  # the first and last letters are Cyrillic
LOOKS_TAKEN = {
    "en": "Another player has this name, or one that looks the same: choose another.",
    "hi": "किसी दूसरे खिलाड़ी का यही नाम है, या ऐसा नाम जो देखने में बिल्कुल इसी जैसा है: कोई और नाम चुनें।",
    "ar": "لدى لاعب آخر هذا الاسم، أو اسم يبدو مثله تمامًا: اختر اسمًا آخر.",
}
SITE_WORD = {
    "en": "This name looks like one of the site's own words: choose another.",
    "hi": "यह नाम साइट के अपने शब्दों में से किसी एक जैसा दिखता है: कोई और नाम चुनें।",
    "ar": "يبدو هذا الاسم مثل إحدى كلمات الموقع نفسه: اختر اسمًا آخر.",
}
MARKS = {
    "en": "A letter in a name carries at most 3 accents or marks, never the same one twice.",
    "hi": "नाम के किसी अक्षर पर ज़्यादा से ज़्यादा 3 मात्राएँ या चिह्न हो सकते हैं, "
    "और एक ही चिह्न लगातार दो बार नहीं।",
    "ar": "لا يحمل الحرف الواحد في الاسم أكثر من 3 علامات أو حركات، "
    "ولا تتكرر العلامة نفسها مرتين متتاليتين.",
}


def names_stored(db: Database) -> list[str]:
    with db.read() as session:
        query = select(PlayerRecord.name).where(PlayerRecord.name.is_not(None))
        return sorted(name for name in session.scalars(query) if name)


def player(client: TestClient, language: str = "en") -> TestClient:
    """Another browser, with a player of its own, reading ``language``."""
    other = TestClient(client.app, follow_redirects=False)
    other.cookies.set("lang", language)
    start(other)
    return other


def named(browser: TestClient, name: str, **headers: str) -> tuple[int, str]:
    answer = browser.post("/settings/name", data={"name": name, "next": "/games"}, headers=headers)
    return answer.status_code, answer.text


@pytest.mark.parametrize("language", ["en", "hi", "ar"])
@pytest.mark.parametrize(
    "lookalike",
    [
        CYRILLIC_ADA,
        "\uff21\uff44\uff41",  # fullwidth
        "\U0001d400da",  # a mathematical bold capital A
        "ADA",
        "A\u200bda",  # refused for its invisible character before it is compared
    ],
)
def test_a_name_that_looks_like_anothers_is_refused(
    client: TestClient, db: Database, language: str, lookalike: str
) -> None:
    assert named(player(client), "Ada")[0] == 303
    other = player(client, language)
    for headers in ({}, HX):
        status, page = named(other, lookalike, **headers)
        assert status == 422
        if lookalike != "A\u200bda":
            assert LOOKS_TAKEN[language] in page
    assert names_stored(db) == ["Ada"]


@pytest.mark.parametrize("language", ["en", "hi", "ar"])
@pytest.mark.parametrize(
    "word",
    ["anonymous", "anonym\u043eus", "Anonymous", "ANONYMOUS", "गुमनाम", "مجهول", "Player", "खिलाड़ी"],
)
def test_a_name_cannot_be_one_of_the_sites_own_words(
    client: TestClient, db: Database, language: str, word: str
) -> None:
    browser = player(client, language)
    for headers in ({}, HX):
        status, page = named(browser, word, **headers)
        assert status == 422
        assert escape(SITE_WORD[language]) in page
    assert names_stored(db) == []


@pytest.mark.parametrize("language", ["en", "hi", "ar"])
def test_a_stack_of_combining_marks_is_refused(
    client: TestClient, db: Database, language: str
) -> None:
    browser = player(client, language)
    for name in ("b" + "\u0301" * 23, "b\u0301\u0302\u0303\u0304", "e\u0301\u0301"):
        status, page = named(browser, name)
        assert status == 422
        assert MARKS[language] in page
    assert names_stored(db) == []


def test_names_are_kept_nfkc_and_names_with_their_marks_are_kept(
    client: TestClient, db: Database
) -> None:
    assert named(player(client), "\uff21\uff44\uff41")[0] == 303  # fullwidth
    assert named(player(client), "\U0001d401en")[0] == 303  # mathematical bold B
    # Hindi syllables take two marks, Arabic a shadda and a vowel: kept as typed.
    for name in ("हूँ", "मैं कौन", "مُحَمَّد", "Zoë", "Nguyễn"):
        assert named(player(client), name)[0] == 303, name
    assert names_stored(db) == sorted(["Ada", "Ben", "हूँ", "मैं कौन", "مُحَمَّد", "Zoë", "Nguyễn"])


def test_a_player_may_keep_their_own_name_in_another_form(client: TestClient, db: Database) -> None:
    browser = player(client)
    assert named(browser, "Ada")[0] == 303
    assert named(browser, CYRILLIC_ADA)[0] == 303  # their own: the one name, written again
    assert names_stored(db) == [CYRILLIC_ADA]
    assert named(player(client), "Ada")[0] == 422


LABELS = (
    "anonymous 1", "Anonymous 12", "anonymous-3", "anonymous7", "ANONYMOUS l", "Player 1",
    "player 2048", "Player٣", "गुमनाम 1", "गुमनाम १७", "खिलाड़ी ३", "مجهول 1",
    "مجهول ١٧", "مجهول ۴", "اللاعب 2", "لاعب ٥", "anonym\u043eus 1",  # noqa: RUF001
)  # fmt: skip
"""The labels the site gives unnamed players, in its three languages, with numbers in
several scripts (and a Cyrillic o, an l for a 1)."""


@pytest.mark.parametrize("language", ["en", "hi", "ar"])
def test_the_labels_of_unnamed_players_are_never_names(
    client: TestClient, db: Database, language: str
) -> None:
    browser = player(client, language)
    for label, headers in zip(LABELS, [{}, HX] * len(LABELS), strict=False):
        status, page = named(browser, label, **headers)
        assert status == 422, label
        assert escape(SITE_WORD[language]) in page
    assert names_stored(db) == []


def test_names_with_numbers_that_are_no_label_are_kept(client: TestClient, db: Database) -> None:
    kept = ["Agent 007", "Ana 1", "Anonymous Coward", "Player One", "लैला ७", "ليلى ٣"]
    for name in kept:
        assert named(player(client), name)[0] == 303, name
    assert names_stored(db) == sorted(kept)
