from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from apikeys import ratelimit


class Clock:
    """The rate limiter's clock, set by the test."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 12, 30, 20, tzinfo=UTC).timestamp()

    def set(self, moment: datetime) -> None:
        self.now = moment.timestamp()

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(ratelimit, "current_time", lambda: clock.now)
    return clock


@pytest.fixture(autouse=True)
def _fresh_limiter_state() -> Iterator[None]:
    ratelimit.reset_local_state()
    yield
    ratelimit.reset_local_state()
