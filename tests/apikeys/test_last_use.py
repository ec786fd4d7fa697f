"""Last uses of many keys are written together, not one query each."""

from __future__ import annotations

from http import HTTPStatus

from django.db import connection
from django.test.utils import CaptureQueriesContext

from apikeys.keys import digest
from apikeys.lastuse import FLUSH_SECONDS
from apikeys.limiter.policy import LAST_USE_SECONDS
from apikeys.models import ApiKey


def test_later_uses_of_many_keys_are_written_in_one_query(client, make_key, clock):
    raw = [make_key(name=f"Shelter {n}") for n in range(5)]
    for key in raw:  # first uses: each written at once
        assert client.get("/v1/pets", headers={"Authorization": f"Bearer {key}"}).status_code == (
            HTTPStatus.OK
        )
    clock.now += LAST_USE_SECONDS
    waited_at = clock.now

    with CaptureQueriesContext(connection) as waiting:
        for key in raw:
            client.get("/v1/pets", headers={"Authorization": f"Bearer {key}"})
    # The next use recorded FLUSH_SECONDS or more later writes them all.
    clock.now += max(LAST_USE_SECONDS, FLUSH_SECONDS)
    with CaptureQueriesContext(connection) as flushed:
        client.get("/v1/pets", headers={"Authorization": f"Bearer {raw[0]}"})

    assert not any(q["sql"].startswith("UPDATE") for q in waiting.captured_queries)
    updates = [q["sql"] for q in flushed.captured_queries if q["sql"].startswith("UPDATE")]
    assert len(updates) == 1
    for key in raw:
        row = ApiKey.objects.get(digest=digest(key))
        assert row.last_used_at is not None
        assert row.last_used_at.timestamp() == waited_at - waited_at % 60  # its minute
