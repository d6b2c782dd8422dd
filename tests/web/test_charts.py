"""Charts in the reader's language: words translated, numbers formatted, RTL mirrored."""

from __future__ import annotations

from app import i18n
from app.stats import Charts
from app.web import charts

DATA = Charts(
    recent=[True, False, True, True],
    win_times=[("0–2", 1), ("2–4", 2)],
    days=[("2026-11-29", 1, 0), ("2026-11-30", 2, 1)],
)


def test_left_to_right_time_runs_from_the_left() -> None:
    with i18n.use_locale("en"):
        chart = charts.win_rate_chart(DATA)
    first, last = chart.x_ticks[0], chart.x_ticks[-1]
    assert first.label == "1" and first.at < last.at
    assert chart.value_axis == charts.LEFT
    assert chart.title == "Win percentage over the last 4 finished games"
    assert [key.label for key in charts.daily_chart(DATA).legend] == ["won", "lost"]
    assert "75%" in chart.description


def test_right_to_left_mirrors_the_axes_and_the_data() -> None:
    with i18n.use_locale("en"):
        plain = charts.daily_chart(DATA)
    with i18n.use_locale("ar"):
        chart = charts.daily_chart(DATA)
    assert chart.value_axis == charts.WIDTH - charts.LEFT
    assert chart.value_tick_x == charts.WIDTH - charts.LEFT + 6  # outside the plot, on the right
    for left, right in zip(plain.bars, chart.bars, strict=True):
        assert abs((left.x + left.width / 2) + (right.x + right.width / 2) - charts.WIDTH) < 0.01


def test_every_word_goes_through_the_catalogue() -> None:
    with i18n.use_locale("qps"):
        built = [charts.win_rate_chart(DATA), charts.win_time_chart(DATA), charts.daily_chart(DATA)]
    for chart in built:
        for text in (chart.title, chart.description, chart.x_label, chart.y_label):
            assert text.startswith("⟦"), text
        for bar in chart.bars:
            assert bar.title.startswith("⟦"), bar.title
