"""Glicko-2 against Glickman's worked example ("Example of the Glicko-2 system")."""

from __future__ import annotations

import pytest

from app.ratings.glicko2 import START_DEVIATION, Rating, expected, idle, predicted, rate

EXAMPLE = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_the_worked_example() -> None:
    after = rate(Rating(1500, 200, 0.06), EXAMPLE)
    # The paper rounds its intermediate values: 1464.06, 151.52, 0.05999.
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_the_volatility_does_not_depend_on_where_on_the_scale_a_player_stands() -> None:
    """Where PyPI's glicko2 2.1.0 goes wrong (its f(x) reads μ² for φ²)."""
    surprises = [(Rating(2200, 50), 1.0)] * 10
    low = rate(Rating(1500, 50), surprises)
    high = rate(Rating(2300, 50), [(Rating(3000, 50), 1.0)] * 10)
    assert low.volatility == pytest.approx(high.volatility, rel=1e-9)
    assert low.volatility > 0.0612  # a run of upsets raises it
    assert high.rating - 2300 == pytest.approx(low.rating - 1500, abs=1e-6)


def test_a_period_without_matches_only_widens_the_deviation() -> None:
    kept = Rating(1620, 60, 0.06)
    assert rate(kept, []) == idle(kept)
    later = idle(kept, 30)
    assert (later.rating, later.volatility) == (1620, 0.06)
    assert 60 < later.deviation < START_DEVIATION
    assert idle(kept, 100_000).deviation == START_DEVIATION


def test_expected_is_even_between_equals_and_favours_the_stronger() -> None:
    assert expected(Rating(1500, 80), Rating(1500, 80)) == pytest.approx(0.5)
    assert expected(Rating(1800, 80), Rating(1500, 80)) > 0.8
    # The opponent's uncertainty pulls the chance toward even.
    assert expected(Rating(1800), Rating(1500, 350)) < expected(Rating(1800), Rating(1500, 30))


def test_a_forecast_counts_both_uncertainties() -> None:
    sure, unsure = Rating(1800, 30), Rating(1800, 300)
    deal = Rating(1500, 30)
    assert predicted(sure, deal) == pytest.approx(expected(sure, deal), abs=0.01)
    assert 0.5 < predicted(unsure, deal) < predicted(sure, deal)
