"""Server-side SVG charts: the coordinates are worked out here, the template only draws.

Every chart is drawn in a 600 × 276 box (the SVG scales to its container) with the plot
area inside fixed margins; axes carry ticks and labels (the value axis's label stands level
above it, never across its ticks), a legend in the page's own text names each series by its
colour, and a sentence describes the data for screen readers. On a phone the SVG's text is
drawn larger (``site.css``), so it stays readable however far the box is scaled down.

Every word is a message and every number is formatted for the active language; in a
right-to-left language the chart is mirrored (time runs from right to left and the value
axis stands on the right), as a reader of that language reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date
from typing import Final

from babel.dates import format_date

from app import i18n
from app.i18n import gettext as _
from app.i18n import ngettext
from app.service.ratings import PlayerRating
from app.stats import Charts

WIDTH: Final = 600
HEIGHT: Final = 276
LEFT, RIGHT, TOP, BOTTOM = 58, 16, 40, 54
PLOT_W: Final = WIDTH - LEFT - RIGHT
PLOT_H: Final = HEIGHT - TOP - BOTTOM


@dataclass(frozen=True, slots=True)
class Tick:
    at: float
    label: str
    day: str = ""
    """The ISO date a day's label names (Babel wrote it from CLDR)."""


@dataclass(frozen=True, slots=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    css: str
    title: str


@dataclass(frozen=True, slots=True)
class Key:
    """One entry of a chart's legend: the series' class (its colour) and its name."""

    css: str
    label: str


@dataclass(frozen=True, slots=True)
class Chart:
    id: str
    title: str
    description: str
    x_label: str
    y_label: str
    x_ticks: list[Tick] = field(default_factory=list)
    y_ticks: list[Tick] = field(default_factory=list)
    line: str = ""
    """Polyline points for a line chart."""
    dots: list[tuple[float, float]] = field(default_factory=list)
    """Points drawn as dots too, when there are few of them."""
    bars: list[Bar] = field(default_factory=list)
    band: str = ""
    """Polygon points of a band around the line (a rating's deviation)."""
    legend: list[Key] = field(default_factory=list)
    empty: bool = False
    empty_text: str = ""

    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    top: int = TOP
    right_edge: int = WIDTH - RIGHT
    bottom_edge: int = HEIGHT - BOTTOM
    value_axis: float = LEFT
    """Where the value axis stands: the left edge of the plot, the right one in RTL."""
    value_tick_x: float = LEFT - 6
    """Where its tick labels end, outside the plot. The SVG's text runs in the page's
    direction, so its anchors are logical: ``end`` is toward the plot in either direction,
    and the axis's label ``start``s at the outer edge."""
    value_label_x: float = 8
    """Where the value axis's label starts: level with the top of the plot, above it."""


def _y(value: float, top: float) -> float:
    return TOP + PLOT_H - (value / top) * PLOT_H if top else TOP + PLOT_H


def _nice_top(value: int) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000, 2000, 5000, 10_000):
        if value <= step * 4:
            return max(step * ((value + step - 1) // step), step)
    return value


def _count_ticks(top: int) -> list[Tick]:
    step = max(1, top // 4)
    return [Tick(_y(v, top), i18n.number(v)) for v in range(0, top + 1, step)]


def mirrored(chart: Chart) -> Chart:
    """The chart as a right-to-left reader reads it: x runs from the right."""

    def flip(x: float) -> float:
        return WIDTH - x

    points = [(flip(x), y) for x, y in chart.dots]

    def flipped(polyline: str) -> str:
        pairs = (pair.split(",") for pair in polyline.split())
        return " ".join(f"{flip(float(x)):.1f},{y}" for x, y in pairs)

    line = flipped(chart.line)
    return replace(
        chart,
        x_ticks=[Tick(flip(tick.at), tick.label, tick.day) for tick in chart.x_ticks],
        bars=[replace(bar, x=flip(bar.x) - bar.width) for bar in chart.bars],
        dots=points,
        line=line,
        band=flipped(chart.band),
        left=RIGHT,
        right_edge=WIDTH - chart.left,
        value_axis=WIDTH - chart.left,
        value_tick_x=WIDTH - chart.left + 6,
        value_label_x=WIDTH - 8,
    )


def for_reader(chart: Chart) -> Chart:
    """The chart as the active language reads it."""
    return mirrored(chart) if i18n.direction() == "rtl" else chart


def _day(iso: str, pattern: str = "d MMM") -> str:
    return format_date(date.fromisoformat(iso), pattern, locale=i18n.babel_locale())


def win_rate_chart(charts: Charts) -> Chart:
    results = charts.recent
    n = len(results)
    points = []
    wins = 0
    for index, won in enumerate(results, start=1):
        wins += won
        x = LEFT + (PLOT_W * (index - 1) / (n - 1) if n > 1 else PLOT_W / 2)
        points.append((x, _y(100 * wins / index, 100)))
    x_ticks = [
        Tick(LEFT + (PLOT_W * (i - 1) / (n - 1) if n > 1 else PLOT_W / 2), i18n.number(i))
        for i in sorted({1, *range(10, n + 1, 10), n})
        if n and i <= n
    ]
    values = {"num": i18n.number(n), "final": i18n.percent(wins / n if n else 0)}
    return for_reader(
        Chart(
            id="win-rate",
            title=(
                ngettext(
                    "Win percentage over %(num)s finished game",
                    "Win percentage over the last %(num)s finished games",
                    n,
                )
                % values
                if n
                else _("Win percentage")
            ),
            description=ngettext(
                "Running win percentage over %(num)s finished game, ending at %(final)s.",
                "Running win percentage over the last %(num)s finished games, ending at %(final)s.",
                n,
            )
            % values,
            x_label=_("game"),
            y_label=_("% won"),
            x_ticks=x_ticks,
            y_ticks=[Tick(_y(v, 100), i18n.percent(v / 100)) for v in (0, 25, 50, 75, 100)],
            line=" ".join(f"{x:.1f},{y:.1f}" for x, y in points),
            dots=points if n <= 30 else [],
            legend=[Key("key-line", _("share of games won so far"))],
            empty=n == 0,
            empty_text=_("No games to draw yet."),
        )
    )


def win_time_chart(charts: Charts) -> Chart:
    bins = charts.win_times
    top = _nice_top(max((count for _, count in bins), default=0))
    slot = PLOT_W / len(bins)
    bars = [
        Bar(
            LEFT + i * slot + slot * 0.12,
            _y(count, top),
            slot * 0.76,
            TOP + PLOT_H - _y(count, top),
            "bar-win",
            ngettext("%(minutes)s min: %(num)s win", "%(minutes)s min: %(num)s wins", count)
            % {"minutes": label, "num": i18n.number(count)},
        )
        for i, (label, count) in enumerate(bins)
    ]
    total = sum(count for _label, count in bins)
    return for_reader(
        Chart(
            id="win-times",
            title=_("Winning times"),
            description=ngettext(
                "How long %(num)s win took, in minutes of play.",
                "How long %(num)s wins took, in minutes of play.",
                total,
            )
            % {"num": i18n.number(total)},
            x_label=_("minutes"),
            y_label=_("wins"),
            x_ticks=(
                # Each bin's first minute on the line between two bars: short labels that
                # stay apart on a phone ("10–15" under every bar did not).
                [Tick(LEFT + i * slot, edge) for i, edge in enumerate(charts.win_time_edges)]
                if charts.win_time_edges
                else [Tick(LEFT + (i + 0.5) * slot, label) for i, (label, _n) in enumerate(bins)]
            ),
            y_ticks=_count_ticks(top),
            bars=bars,
            legend=[Key("bar-win", _("games won in that time"))],
            empty=total == 0,
            empty_text=_("No wins yet."),
        )
    )


def daily_chart(charts: Charts) -> Chart:
    days = charts.days
    top = _nice_top(max((won + lost for _, won, lost in days), default=0))
    slot = PLOT_W / len(days)
    bars: list[Bar] = []
    for i, (day, won, lost) in enumerate(days):
        x = LEFT + i * slot + slot * 0.15
        won_top = _y(won, top)
        shown = {"day": i18n.day(date.fromisoformat(day)), "num": i18n.number(won)}
        title = ngettext("%(day)s: %(num)s won", "%(day)s: %(num)s won", won) % shown
        bars.append(Bar(x, won_top, slot * 0.7, TOP + PLOT_H - won_top, "bar-win", title))
        lost_top = _y(won + lost, top)
        shown = {"day": i18n.day(date.fromisoformat(day)), "num": i18n.number(lost)}
        title = ngettext("%(day)s: %(num)s lost", "%(day)s: %(num)s lost", lost) % shown
        bars.append(Bar(x, lost_top, slot * 0.7, won_top - lost_top, "bar-loss", title))
    x_ticks = [
        Tick(LEFT + (i + 0.5) * slot, _day(day), day)
        for i, (day, _won, _lost) in enumerate(days)
        if i % 7 == 3  # a week apart (days 4, 11, 18, 25): room for a month's full name
    ]
    won = sum(entry[1] for entry in days)
    lost = sum(entry[2] for entry in days)
    shown = {
        "wins": ngettext("%(num)s win", "%(num)s wins", won) % {"num": i18n.number(won)},
        "losses": ngettext("%(num)s loss", "%(num)s losses", lost) % {"num": i18n.number(lost)},
        "num": i18n.number(len(days)),
    }
    return for_reader(
        Chart(
            id="per-day",
            title=ngettext(
                "Results per day, last %(num)s day", "Results per day, last %(num)s days", len(days)
            )
            % shown,
            description=ngettext(
                "%(wins)s and %(losses)s over the last %(num)s day (UTC).",
                "%(wins)s and %(losses)s over the last %(num)s days (UTC).",
                len(days),
            )
            % shown,
            x_label=_("day"),
            y_label=_("games"),
            x_ticks=x_ticks,
            y_ticks=_count_ticks(top),
            bars=bars,
            legend=[Key("bar-win", _("won")), Key("bar-loss", _("lost"))],
            empty=won + lost == 0,
            empty_text=_("No games to draw yet."),
        )
    )


RATING_LEFT: Final = 84
"""The rating chart's value axis stands further in: its labels have four digits and a
group separator ("2,000"), drawn large on a phone."""


def rating_chart(rating: PlayerRating) -> Chart:
    """The player's rating after each period they played, the band its deviation (±)."""
    history = rating.history
    n = len(history)
    low = min((value - deviation for _day_, value, deviation in history), default=1400.0)
    high = max((value + deviation for _day_, value, deviation in history), default=1600.0)
    bottom, top = 100 * int(low // 100), 100 * int(-(-high // 100))
    span = max(top - bottom, 100)

    def y(value: float) -> float:
        return _y(min(max(value - bottom, 0.0), span), span)

    width = WIDTH - RATING_LEFT - RIGHT

    def x(index: int) -> float:
        return RATING_LEFT + (width * index / (n - 1) if n > 1 else width / 2)

    points = [(x(i), y(value)) for i, (_day_, value, _dev) in enumerate(history)]
    upper = [f"{x(i):.1f},{y(value + dev):.1f}" for i, (_d, value, dev) in enumerate(history)]
    lower = [f"{x(i):.1f},{y(value - dev):.1f}" for i, (_d, value, dev) in enumerate(history)]
    step = max(100, 100 * round(span / 400))
    y_ticks = [Tick(y(v), i18n.number(v)) for v in range(bottom, top + 1, step)]
    # Three days, none at an end of the axis (a label there would spill out of the box).
    shown = sorted({n // 6, n // 2, n - 1 - n // 6}) if n else []
    x_ticks = [
        Tick(x(i), _day(history[i][0].isoformat()), history[i][0].isoformat()) for i in shown
    ]
    values = {
        "num": i18n.number(n),
        "rating": i18n.number(rating.shown.rating),
        "deviation": i18n.number(rating.shown.deviation),
    }
    return for_reader(
        Chart(
            id="rating",
            title=_("Your rating over time"),
            description=ngettext(
                "Your rating after %(num)s day of rated games, now %(rating)s ± %(deviation)s.",
                "Your rating after each of %(num)s days of rated games, now %(rating)s ± "
                "%(deviation)s.",
                n,
            )
            % values,
            x_label=_("day"),
            y_label=_("rating"),
            left=RATING_LEFT,
            value_axis=RATING_LEFT,
            value_tick_x=RATING_LEFT - 6,
            x_ticks=x_ticks,
            y_ticks=y_ticks,
            line=" ".join(f"{px:.1f},{py:.1f}" for px, py in points),
            band=" ".join([*upper, *reversed(lower)]),
            dots=points if n <= 30 else [],
            legend=[
                Key("key-line", _("rating after the day")),
                Key("key-band", _("how sure it is (± deviation)")),
            ],
            empty=n == 0,
            empty_text=_("No rated games yet."),
        )
    )
