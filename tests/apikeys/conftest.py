from __future__ import annotations

from collections.abc import Iterator

import pytest

from apikeys import ratelimit


@pytest.fixture(autouse=True)
def _fresh_limiter_state() -> Iterator[None]:
    ratelimit.reset_local_state()
    yield
    ratelimit.reset_local_state()
