"""A race's table in words: each racer's row as every page that shows the race draws it
(the race's page, its live stream, and a racer's game page beside the board)."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request

from app import i18n
from app.i18n import gettext as _
from app.service import races
from app.web.templating import clock, paths


def name_of(racer: races.Racer) -> str:
    return racer.name or _("anonymous %(num)s") % {"num": racer.joined}


@dataclass(frozen=True, slots=True)
class Row:
    """A racer's row in the race's table, in words."""

    racer: races.Racer
    name: str
    standing: str
    progress: str
    time: str
    watch_url: str | None
    replay_url: str | None = None
    """The race's own link to the racer's game replayed (its result's: never revoked)."""


def rows(request: Request, race: races.Race) -> list[Row]:
    show = paths(request)
    found = []
    for racer in race.racers:
        # The table's column says what the racer did (a verb), unlike the charts' "won".
        if racer.standing == "won":
            standing = i18n.pgettext("standing", "won")
        elif racer.standing == "gave_up":
            standing = i18n.pgettext("standing", "gave up")
        elif racer.standing == "unfinished":
            standing = _("out of time") if race.deadline else _("unfinished")
        elif racer.standing == "playing":
            standing = _("playing") if race.under_way else _("ready")
        else:
            standing = _("joined")
        progress = ""
        if racer.position is not None:
            progress = race.game.progress(racer.position)
        watch = None
        if racer.watch_token:
            watch = show.path_for(request, "watch", token=racer.watch_token)
        replay = None
        if race.state == "finished" and racer.game_id:
            replay = show.path_for(request, "race_replay", token=race.token, joined=racer.joined)
        time = clock(racer.race_ms) if racer.race_ms is not None else ""
        found.append(Row(racer, name_of(racer), standing, progress, time, watch, replay))
    return found


__all__ = ["Row", "name_of", "rows"]
