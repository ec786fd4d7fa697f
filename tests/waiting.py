"""How long a test waits for what is bound to happen (a server to answer, a delivery to arrive,
a log line to be written), and the one way it waits: by checking for the thing itself."""

from __future__ import annotations

import time
from collections.abc import Callable

# Far more than an idle machine needs, so that a loaded one (other work on the same cores)
# passes too. A test that asserts how soon something happens says so with its own figure.
READY_SECONDS = 120


def wait_until(
    done: Callable[[], object], what: str, seconds: float = READY_SECONDS, every: float = 0.05
) -> None:
    """Return once ``done()`` is true; fail saying ``what`` did not happen within ``seconds``."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds:.0f} s")
        time.sleep(every)
