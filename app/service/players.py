"""Players: made on their first game or setting, known by a cookie, with a table of their own.

A player's settings (:class:`Settings`) are kept with the player on the server, so they are
the same on every device the player's cookie goes to (the transfer link moves it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Final

from app.rules.protocol import AUTO_HOME_MODES, AutoHome
from app.service.model import utcnow
from app.store import Database, Link, queries
from app.store.ids import new_player_id
from app.store.models import (
    CARD_SIZES,
    DECKS,
    HANDS,
    MOTIONS,
    THEMES,
    CardSize,
    Deck,
    Hand,
    Motion,
    PlayerRecord,
    Theme,
)
from app.store.rows import GameRow


@dataclass(frozen=True, slots=True)
class Settings:
    """A player's own table; the defaults are the site's look for a new visitor."""

    deck: Deck = "two"
    card_size: CardSize = "normal"
    hand: Hand = "right"
    auto_home: AutoHome = "safe"
    motion: Motion = "on"
    theme: Theme = "system"

    @property
    def classes(self) -> str:
        """The classes of the page's ``<html>`` that draw these settings (the stylesheets
        hook onto them): ``'deck-4 cards-large'``; empty for the defaults."""
        return " ".join(name for name, on in self.switches() if on)

    def switches(self) -> tuple[tuple[str, bool], ...]:
        """Every class the settings draw with, and whether it is on."""
        return (
            ("deck-4", self.deck == "four"),
            ("cards-large", self.card_size == "large"),
            ("hand-left", self.hand == "left"),
            ("motion-reduced", self.motion == "reduced"),
            ("theme-dark", self.theme == "dark"),
            ("theme-light", self.theme == "light"),
        )


DEFAULT_SETTINGS: Final = Settings()
CHOICES: Final[Mapping[str, tuple[str, ...]]] = {
    "deck": DECKS,
    "card_size": CARD_SIZES,
    "hand": HANDS,
    "auto_home": AUTO_HOME_MODES,
    "motion": MOTIONS,
    "theme": THEMES,
}
"""Each setting and the words it may take, the first being its default."""


class UnknownSetting(ValueError):
    """A setting that is not one, or a value it cannot take."""


def ensure_player(*, db: Database, player_id: str | None, now: datetime | None = None) -> str:
    """The id of an existing player, or of a new one made now."""
    with db.write() as session:
        if player_id and queries.player(session, player_id) is not None:
            return player_id
        new_id = new_player_id()
        session.add(PlayerRecord(id=new_id, created_at=now or utcnow()))
        return new_id


def player_exists(*, db: Database, player_id: str) -> bool:
    with db.read() as session:
        return queries.player(session, player_id) is not None


def settings(*, db: Database, player_id: str | None, owner: str | None = None) -> Settings:
    """The player's settings (the defaults for no player, or one not known; on a game's
    page, its ``owner``'s then, as :func:`read_settings` says)."""
    if not player_id and not owner:
        return DEFAULT_SETTINGS
    with db.look() as link:
        return read_settings(link, player_id, owner)


def read_settings(link: Link, player_id: str | None, owner: str | None = None) -> Settings:
    """The player's settings; on a game's page (``owner``, the player the game is
    theirs), a device that is no player of this site yet (a game's link opened elsewhere)
    sees and plays the game at its owner's table, so it looks the same on every device."""
    row = queries.settings(link, player_id) if player_id else None
    if row is None and owner:
        row = queries.settings(link, owner)
    return DEFAULT_SETTINGS if row is None else _settings_of(row)


def table_settings(link: Link, player_id: str | None, game: GameRow) -> Settings:
    """:func:`read_settings` for a game's row, which carries its owner's table: the
    owner (or a device that is no player yet) reads no second row."""
    if player_id and player_id != game.player_id:
        row = queries.settings(link, player_id)
        if row is not None:
            return _settings_of(row)
    if getattr(game, queries.OWNER + "deck") is None:  # no such player (an outer join)
        return DEFAULT_SETTINGS
    return _settings_of(game, queries.OWNER)


def _settings_of(row: object, prefix: str = "") -> Settings:
    """A player's table from a settings row, or from a game's row's owner columns
    (``prefix``: :data:`~app.store.queries.OWNER`)."""
    # The database checks each word (ck_players_deck, …): a row holds only known ones.
    return Settings(**{name: getattr(row, prefix + name) for name in CHOICES})


def checked(changes: Mapping[str, str]) -> dict[str, str]:
    """``changes`` when every one names a setting and a word it may take; else raise
    :class:`UnknownSetting` naming the first that does not."""
    if not changes:
        raise UnknownSetting("no setting to save")
    for name, value in changes.items():
        if value not in CHOICES.get(name, ()):
            raise UnknownSetting(f"{name!r} cannot be {value!r}")
    return dict(changes)


def save_settings(
    *, db: Database, player_id: str | None, changes: Mapping[str, str], now: datetime | None = None
) -> tuple[str, Settings]:
    """Keep ``changes`` (settings by name) for the player, made now if there is none yet:
    the player's id and settings after. Nothing changes when one of them is unknown."""
    wanted = checked(changes)
    with db.write() as session:
        player = queries.player(session, player_id) if player_id else None
        if player is None:
            player = PlayerRecord(id=new_player_id(), created_at=now or utcnow(), **wanted)
            session.add(player)
            before = DEFAULT_SETTINGS
        else:
            before = Settings(**{name: getattr(player, name) for name in CHOICES})
            for name, value in wanted.items():
                setattr(player, name, value)
        values: dict[str, Any] = wanted  # each word checked above: a Literal of its field
        return player.id, replace(before, **values)
