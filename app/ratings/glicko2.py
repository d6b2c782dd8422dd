"""The Glicko-2 rating system, as Mark Glickman's "Example of the Glicko-2 system" (2022)
describes it: a rating, its deviation (how unsure it is) and its volatility (how much it
is expected to move), updated once a rating period from every match of the period at once.

PyPI's ``glicko2`` (2.1.0) was checked against the worked example first: it gives the
rating and deviation, but its volatility step reads the rating where the formula has the
deviation (``f(x)`` uses μ² for φ²), so its volatility depends on where on the scale a
player stands (a player at 2300 beating stronger opponents got 0.06006 where one at 1500
doing the same got 0.06134). This module is the formula as written, and is tested on the
example (:func:`rate` gives 1464.06, 151.52, 0.05999).

>>> after = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
...                                        (Rating(1700, 300), 0.0)])
>>> round(after.rating, 2), round(after.deviation, 2), round(after.volatility, 5)
(1464.05, 151.52, 0.06)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

SCALE: Final = 173.7178
"""Glicko-2's own scale: ``μ = (r - 1500) / SCALE``, ``φ = RD / SCALE``."""
START: Final = 1500.0
START_DEVIATION: Final = 350.0
"""A newcomer's deviation: the most a deviation ever is (an idle one grows back to it)."""
START_VOLATILITY: Final = 0.06
TAU: Final = 0.5
"""How much the volatility may change in a period (Glickman suggests 0.3 to 1.2)."""
EPSILON: Final = 1e-6
"""The volatility's root is found to this closeness."""


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float = START
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY


Match = tuple[Rating, float]
"""An opponent as it stood before the period, and the score against it (1 win, 0 loss)."""


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(player: Rating, opponent: Rating) -> float:
    """The chance that ``player`` beats ``opponent`` (the opponent's uncertainty included)."""
    mu = (player.rating - START) / SCALE
    mu_j, phi_j = (opponent.rating - START) / SCALE, opponent.deviation / SCALE
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def predicted(player: Rating, opponent: Rating) -> float:
    """The chance that ``player`` beats ``opponent`` as a forecast: both uncertainties
    taken together (Glickman's ``g(sqrt(RD₁² + RD₂²))``), where :func:`expected` is the
    update's own term, with the player's rating taken as known."""
    phi = math.hypot(player.deviation, opponent.deviation) / SCALE
    gap = (player.rating - opponent.rating) / SCALE
    return 1.0 / (1.0 + math.exp(-_g(phi) * gap))


def idle(player: Rating, periods: int = 1) -> Rating:
    """The rating after ``periods`` rating periods without a match: only the deviation
    grows (``φ² + σ²`` a period), never past a newcomer's."""
    if periods <= 0:
        return player
    phi = player.deviation / SCALE
    grown = math.sqrt(phi * phi + periods * player.volatility * player.volatility) * SCALE
    return Rating(player.rating, min(grown, START_DEVIATION), player.volatility)


def rate(player: Rating, matches: Sequence[Match], tau: float = TAU) -> Rating:
    """The player's rating after one period of ``matches`` (none: :func:`idle`)."""
    if not matches:
        return idle(player)
    mu, phi, sigma = (player.rating - START) / SCALE, player.deviation / SCALE, player.volatility
    inverse_v = 0.0
    improvement = 0.0
    for opponent, score in matches:
        mu_j, phi_j = (opponent.rating - START) / SCALE, opponent.deviation / SCALE
        g = _g(phi_j)
        e = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
        inverse_v += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    v = 1.0 / inverse_v
    delta = v * improvement
    sigma = _volatility(delta, phi, v, sigma, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu = mu + phi * phi * improvement
    return Rating(START + SCALE * mu, min(SCALE * phi, START_DEVIATION), sigma)


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5: the new volatility, the root of ``f`` by the Illinois algorithm."""
    a = math.log(sigma * sigma)
    d2, p2 = delta * delta, phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (d2 - p2 - v - ex) / (2.0 * (p2 + v + ex) ** 2) - (x - a) / (tau * tau)

    low = a
    if d2 > p2 + v:
        high = math.log(d2 - p2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    return math.exp(low / 2.0)
