"""The usage history: requests tallied by the limiter, rolled up into PostgreSQL exactly once."""

from __future__ import annotations

import threading
from datetime import UTC, date, datetime, timedelta
from http import HTTPStatus
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, connections
from django.db.migrations.executor import MigrationExecutor

from apikeys import keys
from apikeys.limiter import BAN_STRIKES
from apikeys.models import ApiKey, DailyUsage
from apikeys.usage import RETENTION_DAYS, usage_history, usage_purge, usage_rollup
from petstore import redis
from tests.conftest import CLOCK_START

TODAY = CLOCK_START.date()


@pytest.fixture
def two_keys(make_account, make_key):
    """Two keys of one Free account (60 a minute, 1,000 a day)."""
    account = make_account(name="Two-key shelter")
    first, second = make_key(account=account), make_key(account=account)
    return account, first, second


def call(client, key: str, times: int) -> list[int]:
    return [
        client.get("/v1/categories", headers={"Authorization": f"Bearer {key}"}).status_code
        for _ in range(times)
    ]


def key_id(raw: str) -> int:
    found = ApiKey.objects.for_digest(keys.digest(raw))
    assert found is not None
    return found.pk


def counts(day: date = TODAY) -> dict[int, tuple[int, int, int]]:
    return {
        row.api_key_id: (row.admitted, row.refused, row.banned)
        for row in DailyUsage.objects.filter(day=day)
    }


def busy_minute(client, first: str, second: str) -> None:
    """40 requests on the first key, 32 on the second: 60 admitted, then 9 refused, the tenth
    refusal bans the second key, and 2 more come while it is banned."""
    assert set(call(client, first, 40)) == {HTTPStatus.OK}
    statuses = call(client, second, 32)
    assert statuses.count(HTTPStatus.OK) == 20
    assert statuses.count(HTTPStatus.TOO_MANY_REQUESTS) == 12


def test_the_roll_up_files_each_keys_requests_and_the_accounts_total(client, clock, two_keys):
    account, first, second = two_keys
    busy_minute(client, first, second)

    done = usage_rollup()

    assert done.rows == 2
    assert counts() == {
        key_id(first): (40, 0, 0),
        key_id(second): (20, BAN_STRIKES - 1, 3),
    }
    (total,) = usage_history(account_id=account.pk, limits=account.limits, days=1).days
    assert (total.admitted, total.refused, total.banned) == (60, BAN_STRIKES - 1, 3)
    # Every window's limit that day, the Free plan's.
    assert total.limits == account.limits.by_name()
    assert (total.limits["minute"], total.limits["day"]) == (60, 1000)
    row = DailyUsage.objects.filter(api_key_id=key_id(first)).get()
    assert (row.account_id, row.day, row.limits) == (account.pk, TODAY, total.limits)


def test_running_the_roll_up_again_changes_nothing(client, clock, two_keys):
    _, first, second = two_keys
    busy_minute(client, first, second)
    usage_rollup()
    before = counts()

    usage_rollup()
    call_command("rollup_usage", stdout=StringIO())

    assert counts() == before
    assert DailyUsage.objects.count() == 2


def test_requests_after_a_roll_up_are_added_once_by_the_next(client, clock, two_keys):
    _, first, second = two_keys
    call(client, first, 5)
    usage_rollup()
    clock.advance(60)

    call(client, first, 7)
    call(client, second, 2)
    usage_rollup()
    usage_rollup()

    assert counts() == {key_id(first): (12, 0, 0), key_id(second): (2, 0, 0)}


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_two_roll_ups_at_once_count_each_day_once(client, clock, two_keys):
    _, first, second = two_keys
    busy_minute(client, first, second)
    start = threading.Barrier(4)
    errors: list[BaseException] = []

    def roll_up() -> None:
        try:
            start.wait()
            usage_rollup()
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=roll_up) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert counts() == {
        key_id(first): (40, 0, 0),
        key_id(second): (20, BAN_STRIKES - 1, 3),
    }
    assert DailyUsage.objects.count() == 2


def test_each_request_is_filed_under_its_utc_day(client, clock, two_keys):
    _, first, _ = two_keys
    clock.set(datetime(2026, 11, 21, 23, 59, 50, tzinfo=UTC))
    call(client, first, 3)
    clock.advance(15)  # 00:00:05 on the 22nd

    call(client, first, 2)
    usage_rollup()

    assert counts(date(2026, 11, 21)) == {key_id(first): (3, 0, 0)}
    assert counts(date(2026, 11, 22)) == {key_id(first): (2, 0, 0)}


def test_yesterday_is_completed_by_the_roll_up_after_midnight(client, clock, two_keys):
    _, first, _ = two_keys
    clock.set(datetime(2026, 11, 21, 23, 50, tzinfo=UTC))
    call(client, first, 3)
    usage_rollup()
    clock.set(datetime(2026, 11, 21, 23, 59, 30, tzinfo=UTC))
    call(client, first, 4)  # after the last roll-up of the day
    clock.set(datetime(2026, 11, 22, 0, 2, tzinfo=UTC))

    usage_rollup()

    assert counts(date(2026, 11, 21)) == {key_id(first): (7, 0, 0)}
    assert counts(date(2026, 11, 22)) == {}


def test_a_redis_restart_mid_day_loses_only_what_was_not_rolled_up(client, clock, two_keys):
    account, first, _ = two_keys
    call(client, first, 5)
    usage_rollup()
    call(client, first, 2)  # tallied, never rolled up: lost with Redis's data
    redis.client().execute("FLUSHDB")  # type: ignore[union-attr]  # Redis restarts empty
    clock.advance(60)

    call(client, first, 3)

    # Live, before any roll-up sees the new life of the day: the 5 kept, the 3 added.
    (live,) = usage_history(account_id=account.pk, limits=account.limits, days=1).days
    assert live.admitted == 8
    usage_rollup()
    usage_rollup()
    assert counts() == {key_id(first): (8, 0, 0)}
    call(client, first, 1)
    usage_rollup()
    assert counts() == {key_id(first): (9, 0, 0)}


def test_days_without_requests_cost_no_rows(client, clock, two_keys):
    usage_rollup()

    assert DailyUsage.objects.count() == 0


def test_retention_drops_the_days_older_than_ninety(clock, two_keys):
    account, first, _ = two_keys
    api_key = ApiKey.objects.get(pk=key_id(first))
    for age in (RETENTION_DAYS, RETENTION_DAYS - 1, 0):
        DailyUsage.objects.create(
            day=TODAY - timedelta(days=age),
            account=account,
            api_key=api_key,
            admitted=1,
            limits=account.limits.by_name(),
            epoch="e",
            rolled_up_at=CLOCK_START,
        )

    deleted = usage_purge()
    call_command("purge_usage", stdout=StringIO())

    assert deleted == 1
    assert sorted(DailyUsage.objects.values_list("day", flat=True)) == [
        TODAY - timedelta(days=RETENTION_DAYS - 1),
        TODAY,
    ]


def test_without_redis_the_roll_up_reads_the_serving_process_memory(
    client, clock, two_keys, settings
):
    # Embedded mode (make run): the tallies live in the one serving process; the roll-up
    # reads them when it runs in that process (the command, another process, finds none).
    settings.REDIS_URL = ""
    account, first, second = two_keys
    busy_minute(client, first, second)

    usage_rollup()
    usage_rollup()

    assert counts() == {
        key_id(first): (40, 0, 0),
        key_id(second): (20, BAN_STRIKES - 1, 3),
    }
    (today,) = usage_history(account_id=account.pk, limits=account.limits, days=1).days
    assert today.admitted == 60


def test_the_command_says_so_when_redis_is_unreachable(settings, db):
    settings.REDIS_URL = "redis://127.0.0.1:9/0"  # the discard port: nothing listens there

    with pytest.raises(CommandError, match="Redis is unreachable"):
        call_command("rollup_usage", stdout=StringIO())

    assert DailyUsage.objects.count() == 0


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_days_rolled_up_before_limits_by_window_keep_theirs(two_keys):
    account, first, _ = two_keys
    first_id = key_id(first)  # read with today's models, which the tables of 0006 may not match
    before = ("apikeys", "0006_publishable_keys_hold_no_webhooks")
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    rows = executor.loader.project_state([before]).apps.get_model("apikeys", "DailyUsage")
    rows.objects.create(
        day=TODAY,
        account_id=account.pk,
        api_key_id=first_id,
        admitted=1,
        per_minute=60,
        per_day=1000,
        epoch="e",
        rolled_up_at=CLOCK_START,
    )

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert DailyUsage.objects.get().limits == {"minute": 60, "day": 1000}
