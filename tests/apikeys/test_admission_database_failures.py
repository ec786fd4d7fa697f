"""PostgreSQL failing under admission, in this process and inside the test's transaction: the
connection dropped by the server, or one write refused by a constraint added for the test (and
rolled back with it). A read admission cannot make answers 503, limited by address; a write
that only follows from a count (the key's last use, the day's threshold event) is skipped."""

from __future__ import annotations

from http import HTTPStatus

import psycopg
from django.db import connection

from apikeys.keyring import keyring
from events.models import Event
from tests.apikeys.test_keys_held import forget_in_redis
from tests.assertions import assert_error


def bearer(raw: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {raw}"}


def postgresql_drops_this_connection() -> None:
    """What a restart or a failover does to a process's connection: the server ends it."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    settings = connection.settings_dict
    with psycopg.connect(
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        user=settings["USER"] or None,
        dbname=settings["NAME"],
        autocommit=True,
    ) as other:
        # Waits until the backend has gone (up to 5 s).
        other.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])


def refuse(table: str, check: str) -> None:
    """PostgreSQL refuses from now on every row of ``table`` that fails ``check``."""
    with connection.cursor() as cursor:
        # The test's rows' deferred checks first: a table with some pending cannot be altered.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute(f"ALTER TABLE {table} ADD CONSTRAINT refused_here CHECK ({check}) NOT VALID")


def test_a_key_read_while_postgresql_is_gone_is_answered_503_limited_by_address(
    client, make_account, make_key, clock
):
    key = make_key(make_account(plan="enterprise", per_minute=1000))
    forget_in_redis(key)  # and this process holds none: the key must be read from PostgreSQL
    keyring.clear()
    postgresql_drops_this_connection()

    response = client.get("/v1/categories", headers=bearer(key))

    assert_error(response, HTTPStatus.SERVICE_UNAVAILABLE, "service_unavailable")
    assert response["X-RateLimit-Limit"] == "60"  # the address's, not the account's 1,000


def test_a_last_use_postgresql_refuses_to_write_is_skipped(client, api_key, clock):
    refuse("apikeys_apikey", "last_used_at IS NULL")

    # The document: an answer that needs no query of its own after admission's.
    response = client.get("/v1/openapi.json", headers=bearer(api_key))

    assert response.status_code == HTTPStatus.OK
    assert response["X-RateLimit-Remaining"] == "59"  # counted against the key's account


def test_a_threshold_event_postgresql_refuses_to_write_is_skipped(
    client, make_account, make_key, clock
):
    key = make_key(make_account(plan="enterprise", per_minute=100, per_day=10))
    refuse("events_event", "type <> 'usage.threshold'")

    statuses = [client.get("/v1/categories", headers=bearer(key)).status_code for _ in range(8)]

    # The eighth passes 80 % of the day: its event is refused, the request is not.
    assert statuses == [HTTPStatus.OK] * 8
    assert not Event.objects.filter(type="usage.threshold").exists()
