"""Usage over time: the limiter's daily tallies, rolled up into PostgreSQL, and read back.

**Gathering** costs the API nothing it did not already pay: the limiter's one script tallies
each request under its account, key, UTC day and outcome in Redis (``apikeys.limiter``), and
nothing is written to PostgreSQL on the request path.

**The roll-up** (``usage_rollup``, run by ``manage.py rollup_usage`` from cron every few minutes
and just after midnight UTC) copies today's and yesterday's tallies into ``DailyUsage``, one row
per key and day. It writes absolute values, never increments, so running it twice, or on two
hosts at once, counts each day once; and it never lets an older reading replace a newer one.

**A Redis restart** that loses its data mid-day starts the day's tallies again from zero. Each
roll-up marks the hash it reads with an ``epoch`` (once: ``HSETNX``), and the row remembers
that epoch; a hash without the row's epoch is a new life of the day, whose counts are added to
what the row had (``*_base``) rather than replacing it. The mark lives in the data itself, so a
Redis that keeps its data (persistence, a promoted replica) keeps the mark too and nothing is
counted twice. What a restart loses at most: the requests tallied since the last roll-up before
it. Requests answered while Redis is unreachable are tallied in each process's memory and are
not rolled up (only the process itself could read them).

**Reading** (``usage_history``: the admin's chart, ``GET /v1/usage``): the rolled-up rows, with
today taken live from Redis in one round trip and merged as the next roll-up would write it.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import F, FloatField, IntegerField, Max, OuterRef, QuerySet, Subquery, Sum
from django.db.models.functions import Cast, Coalesce, NullIf

from apikeys.limiter import limiter, usage_index_name, usage_name
from apikeys.models import Account, ApiKey, DailyUsage, Limits

# Days kept, today included.
RETENTION_DAYS = 90
# The account list's window, today included, and the share of the daily limit that makes an
# account "near its limit" on a day.
RECENT_DAYS = 7
NEAR_LIMIT_PERCENT = 80
KINDS = ("admitted", "refused", "banned")
_EPOCH_DAY = date(1970, 1, 1)


def utc_today() -> date:
    return datetime.now(UTC).date()


def day_number(day: date) -> int:
    """The limiter's name for a UTC day: days since the Unix epoch."""
    return (day - _EPOCH_DAY).days


@dataclass
class Tally:
    admitted: int = 0
    refused: int = 0
    banned: int = 0

    def add(self, other: Tally) -> None:
        self.admitted += other.admitted
        self.refused += other.refused
        self.banned += other.banned


def _tallies_by_key(fields: dict[str, int | str]) -> dict[int, Tally]:
    """``{"k17:admitted": 3, …}`` → ``{17: Tally(admitted=3, …)}``."""
    tallies: dict[int, Tally] = defaultdict(Tally)
    for name, value in fields.items():
        key, _, kind = name.partition(":")
        if key.startswith("k") and kind in KINDS and key[1:].isdigit():
            setattr(tallies[int(key[1:])], kind, int(value))
    return dict(tallies)


# The roll-up ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rollup:
    days: int
    accounts: int
    rows: int


def _upsert_sql() -> str:
    greatest = "MAX" if connection.vendor == "sqlite" else "GREATEST"
    table = connection.ops.quote_name(DailyUsage._meta.db_table)
    counts = []
    for kind in KINDS:
        # Same life of the hash: its count now, never below what an earlier reading stored.
        # A new life (Redis restarted empty): what the row had, plus the new life's count.
        counts.append(
            f"{kind} = CASE WHEN u.epoch = excluded.epoch "
            f"THEN {greatest}(u.{kind}, u.{kind}_base + excluded.{kind}) "
            f"ELSE u.{kind} + excluded.{kind} END"
        )
        counts.append(
            f"{kind}_base = CASE WHEN u.epoch = excluded.epoch THEN u.{kind}_base ELSE u.{kind} END"
        )
    # Built only from our own names (the table's, the counts'); the values are parameters.
    return (
        f"INSERT INTO {table} AS u (day, account_id, api_key_id, admitted, refused, banned, "  # noqa: S608
        "per_minute, per_day, epoch, admitted_base, refused_base, banned_base, rolled_up_at) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, 0, 0, 0, %s) "
        "ON CONFLICT (day, api_key_id) DO UPDATE SET "
        + ", ".join(counts)
        + ", per_minute = excluded.per_minute, per_day = excluded.per_day, "
        "epoch = excluded.epoch, rolled_up_at = excluded.rolled_up_at "
        # A roll-up that read Redis before another wrote never overwrites it: with a restart in
        # between, it would add the old life's counts a second time.
        "WHERE u.rolled_up_at <= excluded.rolled_up_at"
    )


def usage_rollup(*, today: date | None = None) -> Rollup:
    """Copy yesterday's and today's tallies into ``DailyUsage``: idempotent, safe to run on
    several hosts at once. Redis errors are the caller's (cron will run it again)."""
    today = today or utc_today()
    store, prefix = limiter.usage_store()
    accounts = rows = 0
    for day in (today - timedelta(days=1), today):
        number = day_number(day)
        read_at = datetime.now(UTC)
        now = read_at.timestamp()
        epoch = uuid.uuid4().hex
        readings: list[tuple[int, dict[str, int | str]]] = []
        for member in sorted(store.usage_accounts(usage_index_name(number, prefix), now)):
            if not member.isdigit():
                continue
            name = usage_name("{" + f"a{member}" + "}", number, prefix)
            if fields := store.claim_usage(name, epoch, now):
                readings.append((int(member), fields))
        values = _rows(day, readings, read_at)
        if values:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.executemany(_upsert_sql(), values)
        accounts += len(readings)
        rows += len(values)
    return Rollup(days=2, accounts=accounts, rows=rows)


def _rows(
    day: date, readings: list[tuple[int, dict[str, int | str]]], read_at: datetime
) -> list[tuple[Any, ...]]:
    by_account = {account_id: _tallies_by_key(fields) for account_id, fields in readings}
    wanted = {key_id for tallies in by_account.values() for key_id in tallies}
    # Keys deleted since (their account was), or never ours: nothing to file them under.
    owners = dict(ApiKey.objects.filter(pk__in=wanted).values_list("pk", "account_id"))
    values = []
    for account_id, fields in readings:
        epoch = str(fields.get("epoch", ""))
        per_minute, per_day = int(fields.get("per_minute", 0)), int(fields.get("per_day", 0))
        for key_id, tally in sorted(by_account[account_id].items()):
            if owners.get(key_id) != account_id:
                continue
            values.append(
                (
                    day,
                    account_id,
                    key_id,
                    tally.admitted,
                    tally.refused,
                    tally.banned,
                    per_minute,
                    per_day,
                    epoch,
                    read_at,
                )
            )
    return values


def usage_purge(*, today: date | None = None) -> int:
    """Delete the days older than ``RETENTION_DAYS`` (today is the first of them)."""
    first_kept = (today or utc_today()) - timedelta(days=RETENTION_DAYS - 1)
    deleted, _ = DailyUsage.objects.filter(day__lt=first_kept).delete()
    return deleted


# Reading -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UsageDay:
    day: date
    admitted: int
    refused: int  # rate limited
    banned: int  # refused while the key was banned
    # The limits that day; None on a day without requests, when nothing recorded them.
    per_minute: int | None
    per_day: int | None

    @property
    def share_of_limit(self) -> float | None:
        """Admitted requests as a percentage of the daily limit."""
        if not self.per_day:
            return None
        return 100 * self.admitted / self.per_day


@dataclass
class UsageHistory:
    """An account's days, oldest first, and each key's."""

    days: list[UsageDay]
    keys: dict[int, list[UsageDay]] = field(default_factory=dict)


def usage_history(*, account: Account, days: int, today: date | None = None) -> UsageHistory:
    """The last ``days`` UTC days of ``account``, today included and live: one SQL query and
    one Redis round trip."""
    today = today or utc_today()
    first = today - timedelta(days=days - 1)
    rows = list(
        DailyUsage.objects.filter(account=account)
        .between(first, today)
        .values(
            "day",
            "api_key_id",
            "epoch",
            "per_minute",
            "per_day",
            *KINDS,
            *(f"{kind}_base" for kind in KINDS),
        )
    )
    tallies: dict[tuple[date, int], Tally] = {}
    limits: dict[date, tuple[int, int]] = {}
    today_rows: dict[int, dict[str, Any]] = {}
    for row in rows:
        tallies[row["day"], row["api_key_id"]] = Tally(*(row[kind] for kind in KINDS))
        limits[row["day"]] = (row["per_minute"], row["per_day"])
        if row["day"] == today:
            today_rows[row["api_key_id"]] = row
    live = limiter.usage_today(account.pk, day_number(today))
    for key_id, tally in _live_today(live, today_rows).items():
        tallies[today, key_id] = tally
    limits[today] = _today_limits(live, limits.get(today), account.limits)

    totals: dict[date, Tally] = defaultdict(Tally)
    per_key: dict[int, dict[date, Tally]] = defaultdict(dict)
    for (day, key_id), tally in tallies.items():
        totals[day].add(tally)
        per_key[key_id][day] = tally
    calendar = [first + timedelta(days=n) for n in range(days)]

    def series(counts: dict[date, Tally]) -> list[UsageDay]:
        return [_usage_day(day, counts.get(day), limits.get(day)) for day in calendar]

    return UsageHistory(
        days=series(totals), keys={key_id: series(per_key[key_id]) for key_id in sorted(per_key)}
    )


def _live_today(live: dict[str, int | str], rows: dict[int, dict[str, Any]]) -> dict[int, Tally]:
    """Today as the next roll-up would file it: the same arithmetic as ``_upsert_sql``."""
    epoch = live.get("epoch")
    counted = _tallies_by_key(live)
    merged = {}
    for key_id in counted.keys() | rows.keys():
        now = counted.get(key_id, Tally())
        row = rows.get(key_id)
        if row is None:
            merged[key_id] = now
            continue
        values = []
        for kind in KINDS:
            if row["epoch"] == epoch:
                values.append(max(row[kind], row[f"{kind}_base"] + getattr(now, kind)))
            else:
                values.append(row[kind] + getattr(now, kind))
        merged[key_id] = Tally(*values)
    return merged


def _today_limits(
    live: dict[str, int | str], rolled_up: tuple[int, int] | None, current: Limits
) -> tuple[int, int]:
    if "per_day" in live:
        return int(live["per_minute"]), int(live["per_day"])
    return rolled_up or (current.per_minute, current.per_day)


def _usage_day(day: date, tally: Tally | None, limits: tuple[int, int] | None) -> UsageDay:
    tally = tally or Tally()
    per_minute, per_day = limits or (None, None)
    return UsageDay(day, tally.admitted, tally.refused, tally.banned, per_minute, per_day)


# The account list ----------------------------------------------------------------------------


def with_recent_usage(accounts: QuerySet[Account], today: date | None = None) -> QuerySet[Account]:
    """Annotate each account with its last ``RECENT_DAYS`` (rolled up): ``week_admitted``,
    ``week_refused`` (banned included) and ``peak_share``, its busiest day's admitted requests
    as a percentage of that day's limit (None without requests). Subqueries: still one query."""
    today = today or utc_today()
    recent = DailyUsage.objects.filter(
        account=OuterRef("pk"), day__gte=today - timedelta(days=RECENT_DAYS - 1), day__lte=today
    )

    def total(expression: Any) -> Subquery:
        summed = recent.values("account").annotate(total=Sum(expression)).values("total")
        return Coalesce(Subquery(summed), 0, output_field=IntegerField())  # type: ignore[return-value]

    share = (
        Cast(Sum("admitted"), FloatField())
        * 100.0
        / NullIf(Cast(Max("per_day"), FloatField()), 0.0)
    )
    peak = (
        recent.values("day")
        .annotate(share=share)
        .order_by(F("share").desc(nulls_last=True))
        .values("share")[:1]
    )
    return accounts.annotate(
        week_admitted=total(F("admitted")),
        week_refused=total(F("refused") + F("banned")),
        peak_share=Subquery(peak, output_field=FloatField()),
        peak_day=Subquery(
            recent.values("day")
            .annotate(share=share)
            .order_by(F("share").desc(nulls_last=True), "-day")
            .values("day")[:1]
        ),
    )


def csv_rows(*, account: Account, today: date | None = None) -> list[list[Any]]:
    """The account's ``RETENTION_DAYS``, oldest first: a line per day for all its keys, then
    one per key that made requests that day."""
    history = usage_history(account=account, days=RETENTION_DAYS, today=today)
    prefixes = dict(ApiKey.objects.filter(pk__in=history.keys).values_list("pk", "prefix"))
    lines: list[list[Any]] = [
        ["date", "key", "admitted", "refused", "banned", "per_minute", "per_day"]
    ]
    for index, total in enumerate(history.days):
        lines.append(_csv_line(total, "all keys"))
        for key_id, series in history.keys.items():
            day = series[index]
            if day.admitted or day.refused or day.banned:
                lines.append(_csv_line(day, prefixes.get(key_id, f"key {key_id}")))
    return lines


def _csv_line(day: UsageDay, key: str) -> list[Any]:
    return [
        day.day.isoformat(),
        key,
        day.admitted,
        day.refused,
        day.banned,
        "" if day.per_minute is None else day.per_minute,
        "" if day.per_day is None else day.per_day,
    ]
