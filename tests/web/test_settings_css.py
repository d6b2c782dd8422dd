"""The four-colour deck's contrast, computed from the stylesheets' own values: every suit's
colour is at least 4.5:1 on every card face of both games, in both decks, and the focus and
hint rings still stand out (WCAG 1.4.3 and 1.4.11)."""

from __future__ import annotations

import re
from typing import Final

import pytest

from app.config import ROOT

CSS: Final = ROOT / "static" / "css"
SUITS: Final = ("S", "H", "D", "C")


def css(name: str) -> str:
    """The sheet without its comments."""
    return re.sub(r"/\*.*?\*/", "", (CSS / name).read_text(encoding="utf-8"), flags=re.S)


MEDIA: Final = re.compile(r"@media([^{]*)\{((?:[^{}]*\{[^{}]*\})*[^{}]*)\}")


def outside_media(sheet: str) -> str:
    return MEDIA.sub("", sheet)


def phone(sheet: str) -> str:
    """The rules of the sheet's phone layout (``max-width: 600px``)."""
    return "".join(body for query, body in MEDIA.findall(sheet) if "600px" in query)


def declarations(sheet: str, selector: str) -> dict[str, str]:
    """The custom properties set by every rule whose selector is exactly ``selector``."""
    found: dict[str, str] = {}
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", sheet):
        if selector in (part.strip() for part in selectors.split(",")):
            found.update(re.findall(r"(--[\w-]+)\s*:\s*([^;]+);", body))
    return found


def background(sheet: str, selector: str) -> str:
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", sheet):
        if selector in (part.strip() for part in selectors.split(",")):
            match = re.search(r"background:\s*(#[0-9a-fA-F]{6}|var\(--[\w-]+\))", body)
            if match:
                return resolve(match.group(1), ROOT_PROPERTIES)
    raise AssertionError(f"no background for {selector}")


def resolve(value: str, properties: dict[str, str]) -> str:
    while (match := re.fullmatch(r"var\((--[\w-]+)\)", value.strip())) is not None:
        value = properties[match.group(1)]
    return value.strip()


def luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


ROOT_PROPERTIES: Final = declarations(outside_media(css("site.css")), ":root")


def suit_colours(deck: str) -> dict[str, str]:
    properties = dict(ROOT_PROPERTIES)
    if deck == "four":
        properties.update(declarations(css("site.css"), "html.deck-4"))
    return {suit: resolve(f"var(--suit-{suit})", properties) for suit in SUITS}


def card_faces() -> dict[str, str]:
    """Every background a card's face takes in either game."""
    freecell, montana = css("freecell.css"), css("montana.css")
    return {
        "card": resolve("var(--card-face)", ROOT_PROPERTIES),
        "FreeCell held": background(freecell, ".fc-card.selected"),
        "Montana in place": background(montana, "[data-cell].in-place"),
        "Montana idle": background(montana, "[data-cell]:not(.gap).idle"),
    }


def test_the_four_colour_deck_is_the_usual_one() -> None:
    two, four = suit_colours("two"), suit_colours("four")
    assert two == {"S": four["S"], "H": four["H"], "D": four["H"], "C": four["S"]}
    assert len(set(four.values())) == 4  # spades black, hearts red, diamonds blue, clubs green
    assert four["D"] == resolve("var(--blue)", ROOT_PROPERTIES)
    assert four["C"] == resolve("var(--green)", ROOT_PROPERTIES)


@pytest.mark.parametrize("deck", ["two", "four"])
def test_every_suit_reads_on_every_card_face(deck: str) -> None:
    for suit, colour in suit_colours(deck).items():
        for face, paper in card_faces().items():
            ratio = contrast(colour, paper)
            assert ratio >= 4.5, f"{suit} ({colour}) on {face} ({paper}): {ratio:.2f}:1"


def test_the_focus_and_hint_rings_still_stand_out() -> None:
    felt = resolve("var(--felt)", ROOT_PROPERTIES)
    dark = resolve("var(--focus-dark)", ROOT_PROPERTIES)
    light = resolve("var(--focus)", ROOT_PROPERTIES)
    for face, paper in card_faces().items():
        assert contrast(dark, paper) >= 3, face  # the ring's inner line, on a card
    assert contrast(light, felt) >= 3  # its outer glow, on the felt
    hint = re.search(r"\.fc-place\.hint[^{]*\{[^}]*?(#[0-9a-fA-F]{6})", css("freecell.css"))
    assert hint is not None
    assert contrast(hint.group(1), felt) >= 3
    # The hint's blue is no suit's ink: a lit card never reads as a diamond.
    for colour in suit_colours("four").values():
        assert contrast(hint.group(1), colour) >= 2


def test_large_cards_have_corners_a_quarter_bigger() -> None:
    """Each bound of the large corner (and of Montana's face) is at least 1.25 times the
    normal one's: ``clamp(min, preferred, max)`` term by term."""

    def terms(value: str) -> list[float]:
        return [float(number) for number in re.findall(r"(\d+(?:\.\d+)?)(?:rem|vw|\))", value)]

    freecell, montana = outside_media(css("freecell.css")), outside_media(css("montana.css"))
    pairs = [
        (
            declarations(freecell, ".fc-board .fc-top")["--corner-size"],
            declarations(freecell, "html.cards-large .fc-board .fc-top")["--corner-size"],
        ),
        (
            declarations(montana, ".montana-board")["--face-size"],
            declarations(montana, "html.cards-large .montana-board")["--face-size"],
        ),
    ]
    for normal, large in pairs:
        small, big = terms(normal), terms(large)
        assert len(small) == len(big) == 3, (normal, large)
        assert all(b >= 1.25 * s for s, b in zip(small, big, strict=True)), (normal, large)
    on_phone = phone(css("montana.css"))
    normal = declarations(on_phone, ".montana-board")["--face-size"]
    large = declarations(on_phone, "html.cards-large .montana-board")["--face-size"]
    assert float(large.removesuffix("rem")) >= 1.25 * float(normal.removesuffix("rem"))


def test_the_sheets_hook_onto_the_agreed_classes() -> None:
    sheets = css("site.css") + css("freecell.css") + css("montana.css")
    for name in ("deck-4", "cards-large", "hand-left", "motion-reduced"):
        assert f"html.{name}" in sheets, name


DARK: Final = declarations(outside_media(css("site.css")), ":root.theme-dark")


def test_the_dark_table_keeps_light_card_faces_and_its_rings() -> None:
    """The dark theme darkens the table and the panels, never a card's face: every suit
    reads as on the light table, and the focus ring still stands out on the dark felt.
    The system's dark choice (the media query) sets the same values as the class."""
    dark = {**ROOT_PROPERTIES, **DARK}
    assert not any(name.startswith(("--card", "--suit")) for name in DARK)
    felt = resolve("var(--felt)", dark)
    assert contrast(resolve("var(--focus)", dark), felt) >= 3
    assert contrast(resolve("var(--ink)", dark), resolve("var(--paper)", dark)) >= 7
    assert contrast(resolve("var(--muted)", dark), resolve("var(--paper)", dark)) >= 4.5
    queries = MEDIA.findall(css("site.css"))
    system = "".join(body for query, body in queries if "prefers-color-scheme: dark" in query)
    assert declarations(system, ":root:not(.theme-light)") == DARK
