"""The in-memory moving windows the rate limits count in by default."""

from __future__ import annotations

import threading

import pytest
from limits import parse

from app.web import throttle
from app.web.throttle import LocalWindows


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    found = Clock()
    monkeypatch.setattr(throttle.time, "monotonic", found)
    return found


def test_a_window_allows_its_amount_then_refuses_until_the_oldest_hit_leaves(
    clock: Clock,
) -> None:
    windows, three = LocalWindows(), parse("3/second")
    assert [windows.hit(three, "k") for _ in range(4)] == [True, True, True, False]
    assert windows.get_window_stats(three, "k").remaining == 0
    clock.now += 0.5
    assert windows.hit(three, "k") is False, "the window moves: half a second is not enough"
    clock.now += 0.51
    assert windows.hit(three, "k") is True
    assert windows.get_window_stats(three, "k").remaining == 2


def test_keys_count_apart(clock: Clock) -> None:
    windows, one = LocalWindows(), parse("1/minute")
    assert windows.hit(one, "a") and windows.hit(one, "b")
    assert not windows.hit(one, "a")


def test_reset_time_is_when_the_oldest_hit_leaves(
    clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(throttle.time, "time", lambda: 5000.0)
    windows, two = LocalWindows(), parse("2/minute")
    windows.hit(two, "k")
    clock.now += 20
    windows.hit(two, "k")
    stats = windows.get_window_stats(two, "k")
    assert stats.reset_time == pytest.approx(5000.0 + 40)
    assert stats.remaining == 0
    assert windows.get_window_stats(two, "nobody").remaining == 2


def test_keys_with_an_empty_window_are_let_go(clock: Clock) -> None:
    windows, one = LocalWindows(), parse("1/second")
    for number in range(100):
        windows.hit(one, f"player {number}")
    clock.now += LocalWindows.SWEEP_EVERY + 1
    windows.hit(one, "late")
    assert list(windows._hits) == ["late"]


def test_no_thread_is_started_to_count() -> None:
    before = threading.active_count()
    windows, many = LocalWindows(), parse("1000/second")
    for _ in range(200):
        windows.hit(many, "k")
    assert threading.active_count() == before
