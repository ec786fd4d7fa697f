"""Django's per-request receivers: the ones this deployment needs run, the idle ones do not."""

from __future__ import annotations

import os
import subprocess
import sys
import weakref
from typing import Any

from django.core.handlers.base import reset_urlconf
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.dispatch import Signal
from django.urls import get_urlconf, reverse


def receivers(signal: Signal) -> list[Any]:
    found = []
    for _key, receiver, *_ in signal.receivers:
        found.append(receiver() if isinstance(receiver, weakref.ReferenceType) else receiver)
    return found


def test_connections_are_still_checked_as_each_request_starts_and_ends():
    assert close_old_connections in receivers(request_started)
    assert close_old_connections in receivers(request_finished)


# Started as a worker starts: the suite's own process cannot show it, since Django's query
# counting (django_assert_num_queries) reconnects reset_queries as it finishes.
STARTED_PROCESS = """
import weakref
import django
django.setup()
from django.core.cache import close_caches
from django.core.handlers.base import reset_urlconf
from django.core.signals import request_finished as finished, request_started as started
from django.db import close_old_connections, reset_queries
def connected(signal, receiver):
    found = [r() if isinstance(r, weakref.ReferenceType) else r for _k, r, *_ in signal.receivers]
    return receiver in found
print(connected(started, reset_queries), connected(finished, reset_urlconf),
      connected(finished, close_caches), connected(started, close_old_connections),
      connected(finished, close_old_connections))
"""


def test_a_started_process_runs_only_the_receivers_it_needs(settings):
    # DEBUG off and Redis's cache, as in production (and as the suite runs).
    result = subprocess.run(
        [sys.executable, "-c", STARTED_PROCESS],
        env={**os.environ, "DEBUG": "0"},
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )

    reset_queries_, reset_urlconf_, close_caches_, started, finished = result.stdout.split()
    assert (reset_queries_, reset_urlconf_, close_caches_) == ("False", "False", "False")
    assert (started, finished) == ("True", "True")


def test_requests_leave_the_urlconf_as_the_next_one_needs_it(client, auth, settings):
    assert reset_urlconf not in receivers(request_finished)

    response = client.get("/v1/pets", headers=auth)

    assert response.status_code == 200
    # Left as the request set it, and as the next one sets it again before it resolves a path.
    assert get_urlconf() == settings.ROOT_URLCONF
    assert reverse("pet-list") == "/v1/pets"
