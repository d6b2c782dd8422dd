"""The settings as a player is asked them: each setting's legend and its choices, in the
reader's language (the one place that words them: the settings page and the game page's
own table draw them, and a refusal names the setting from here)."""

from __future__ import annotations

from dataclasses import dataclass

from app.i18n import gettext as _


@dataclass(frozen=True, slots=True)
class Choice:
    value: str
    label: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class Field:
    """One setting as the page asks it: a group of radio buttons under a legend."""

    name: str
    legend: str
    choices: tuple[Choice, ...]


def fields() -> tuple[Field, ...]:
    """Every setting and its choices, in the reader's language (the one place that words
    them: the page draws them and a refusal names the setting from here)."""
    return (
        Field(
            "deck",
            _("Deck colours"),
            (
                Choice(
                    "two", _("Two colours"), _("Hearts and diamonds red, spades and clubs black.")
                ),
                Choice(
                    "four",
                    _("Four colours"),
                    _("Spades black, hearts red, diamonds blue, clubs green."),
                ),
            ),
        ),
        Field(
            "card_size",
            _("Card size"),
            (
                Choice("normal", _("Normal")),
                Choice(
                    "large", _("Large"), _("Bigger corners and plainer faces: rank and suit first.")
                ),
            ),
        ),
        Field(
            "theme",
            _("Theme"),
            (
                Choice("system", _("As my device"), _("Light or dark, as your device is set.")),
                Choice("light", _("Light")),
                Choice(
                    "dark", _("Dark"), _("A dark table, light text: easier on the eyes at night.")
                ),
            ),
        ),
        Field(
            "hand",
            _("Hand"),
            (
                Choice("right", _("Right-handed")),
                Choice(
                    "left",
                    _("Left-handed"),
                    _(
                        "Foundations on the left and free cells on the right; on a phone"
                        " the controls keep to the left."
                    ),
                ),
            ),
        ),
        Field(
            "auto_home",
            _("Cards going home by themselves"),
            (
                Choice("off", _("Off"), _("Only you move cards to the foundations.")),
                Choice(
                    "safe",
                    _("Safe cards"),
                    _("Cards no other card could still need (the usual rule)."),
                ),
                Choice(
                    "all",
                    _("Every card"),
                    _("Every card that can go to its foundation goes, after each move."),
                ),
            ),
        ),
        Field(
            "motion",
            _("Motion"),
            (
                Choice("on", _("On"), _("Unless your device asks for less motion.")),
                Choice("reduced", _("Reduced"), _("No moving effects, whatever your device asks.")),
            ),
        ),
    )
