"""Server-side SVG charts: the coordinates are worked out here, the template only draws.

Every chart is drawn in a 600 × 260 box (the SVG scales to its container) with the plot
area inside fixed margins; axes carry ticks and labels, and a sentence describes the data
for screen readers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from app.stats import Charts

WIDTH: Final = 600
HEIGHT: Final = 260
LEFT, RIGHT, TOP, BOTTOM = 46, 14, 16, 44
PLOT_W: Final = WIDTH - LEFT - RIGHT
PLOT_H: Final = HEIGHT - TOP - BOTTOM


@dataclass(frozen=True, slots=True)
class Tick:
    at: float
    label: str


@dataclass(frozen=True, slots=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    css: str
    title: str


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
    empty: bool = False
    empty_text: str = "No games to draw yet."

    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    top: int = TOP
    right_edge: int = WIDTH - RIGHT
    bottom_edge: int = HEIGHT - BOTTOM


def _y(value: float, top: float) -> float:
    return TOP + PLOT_H - (value / top) * PLOT_H if top else TOP + PLOT_H


def _nice_top(value: int) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000, 2000, 5000, 10_000):
        if value <= step * 4:
            return max(step * ((value + step - 1) // step), step)
    return value


def _count_ticks(top: int) -> list[Tick]:
    step = max(1, top // 4)
    return [Tick(_y(v, top), str(v)) for v in range(0, top + 1, step)]


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
        Tick(LEFT + (PLOT_W * (i - 1) / (n - 1) if n > 1 else PLOT_W / 2), str(i))
        for i in sorted({1, *range(10, n + 1, 10), n})
        if n and i <= n
    ]
    final = f"{100 * wins / n:.0f} %" if n else "no games yet"
    games = "game" if n == 1 else f"{n} games"
    finished = "finished game" if n == 1 else f"{n} finished games"
    return Chart(
        id="win-rate",
        title=f"Win percentage over the last {games}" if n else "Win percentage",
        description=f"Running win percentage over the last {finished}, ending at {final}.",
        x_label="game",
        y_label="% won",
        x_ticks=x_ticks,
        y_ticks=[Tick(_y(v, 100), f"{v}") for v in (0, 25, 50, 75, 100)],
        line=" ".join(f"{x:.1f},{y:.1f}" for x, y in points),
        dots=points if n <= 30 else [],
        empty=n == 0,
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
            f"{label} min: {count} wins",
        )
        for i, (label, count) in enumerate(bins)
    ]
    total = sum(count for _, count in bins)
    return Chart(
        id="win-times",
        title="Winning times",
        description=f"How long {total} wins took, in minutes of play.",
        x_label="minutes",
        y_label="wins",
        x_ticks=[Tick(LEFT + (i + 0.5) * slot, label) for i, (label, _) in enumerate(bins)],
        y_ticks=_count_ticks(top),
        bars=bars,
        empty=total == 0,
        empty_text="No wins yet.",
    )


def daily_chart(charts: Charts) -> Chart:
    days = charts.days
    top = _nice_top(max((won + lost for _, won, lost in days), default=0))
    slot = PLOT_W / len(days)
    bars: list[Bar] = []
    for i, (day, won, lost) in enumerate(days):
        x = LEFT + i * slot + slot * 0.15
        won_top = _y(won, top)
        bars.append(
            Bar(x, won_top, slot * 0.7, TOP + PLOT_H - won_top, "bar-win", f"{day}: {won} won")
        )
        lost_top = _y(won + lost, top)
        bars.append(
            Bar(x, lost_top, slot * 0.7, won_top - lost_top, "bar-loss", f"{day}: {lost} lost")
        )
    x_ticks = [
        Tick(LEFT + (i + 0.5) * slot, day[5:]) for i, (day, _, _) in enumerate(days) if i % 5 == 4
    ]
    won = sum(w for _, w, _ in days)
    lost = sum(lost for _, _, lost in days)
    return Chart(
        id="per-day",
        title=f"Results per day, last {len(days)} days",
        description=f"{won} won and {lost} lost over the last {len(days)} days (UTC).",
        x_label="day",
        y_label="games",
        x_ticks=x_ticks,
        y_ticks=_count_ticks(top),
        bars=bars,
        empty=won + lost == 0,
    )
