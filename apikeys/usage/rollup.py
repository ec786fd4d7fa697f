"""The roll-up: the day's tallies copied from Redis into ``DailyUsage``, and old days purged.

``usage_rollup`` (``manage.py rollup_usage``, from cron every few minutes and just after
midnight UTC) files today's and yesterday's tallies, one row per key and day. It writes what the
day adds up to, never increments, so running it twice, or on two hosts at once, counts each day
once; and it never lets an older reading replace a newer one.

A Redis restart that loses its data mid-day starts the day's tallies again from zero. Each
roll-up marks the hash it reads with an ``epoch`` (once: ``HSETNX``), and the row remembers
that epoch; a hash without the row's epoch is a new life of the day, whose counts are added to
what the row had (``*_base``) rather than replacing it (``filed``). The mark lives in the data
itself, so a Redis that keeps its data (persistence, a promoted replica) keeps the mark too and
nothing is counted twice. What a restart loses at most: the requests tallied since the last
roll-up before it. Requests answered while Redis is unreachable are tallied in each process's
memory and are not rolled up (only the process itself could read them).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction

from apikeys.models import Account, ApiKey, DailyUsage
from apikeys.usage.tallies import (
    KINDS,
    Tally,
    day_number,
    limits_of,
    tallies_by_key,
    usage_index_name,
    usage_name,
    usage_store,
    utc_today,
)

# Days kept, today included.
RETENTION_DAYS = 90


# The columns of a key's day that filed() reads: its counts, and its epoch's bases.
FILED_COLUMNS = ("epoch", *KINDS, *(f"{kind}_base" for kind in KINDS))


@dataclass(frozen=True)
class Filed:
    """A key's day as its row holds it: the counts, what earlier lives of the hash had counted
    (``base``), and the life (``epoch``) the counts were last read from."""

    counts: Tally
    base: Tally
    epoch: str

    @classmethod
    def of(cls, row: dict[str, Any]) -> Filed:
        """From a row's ``FILED_COLUMNS`` (``values()``)."""
        return cls(
            Tally(*(row[kind] for kind in KINDS)),
            Tally(*(row[f"{kind}_base"] for kind in KINDS)),
            row["epoch"],
        )

    def columns(self) -> dict[str, Any]:
        """The row's ``FILED_COLUMNS``."""
        bases = {f"{kind}_base": count for kind, count in zip(KINDS, self.base.counts, strict=True)}
        return {"epoch": self.epoch, **dict(zip(KINDS, self.counts.counts, strict=True)), **bases}


def filed(row: Filed | None, epoch: str | None, live: Tally) -> Filed:
    """A key's day after a reading ``live`` of the hash's life ``epoch`` (None: not marked
    yet): what the roll-up writes, and what the usage history shows for today."""
    if row is None:
        return Filed(live, Tally(), epoch or "")
    if row.epoch == epoch:
        # Same life of the hash: its count now, never below what an earlier reading stored.
        counts = zip(row.counts.counts, row.base.counts, live.counts, strict=True)
        return Filed(
            Tally(*(max(had, base + now) for had, base, now in counts)), row.base, row.epoch
        )
    # A new life (Redis restarted empty): what the row had, plus the new life's count.
    return Filed(row.counts + live, row.counts, epoch or "")


@dataclass(frozen=True)
class Rollup:
    days: int
    accounts: int
    rows: int


def usage_rollup(*, today: date | None = None) -> Rollup:
    """Copy yesterday's and today's tallies into ``DailyUsage``: idempotent, safe to run on
    several hosts at once. Redis errors are the caller's (cron will run it again)."""
    today = today or utc_today()
    store, prefix = usage_store(), settings.REDIS_KEY_PREFIX
    accounts = rows = 0
    for day in (today - timedelta(days=1), today):
        number = day_number(day)
        read_at = datetime.now(UTC)
        now = read_at.timestamp()
        epoch = uuid.uuid4().hex
        readings: dict[int, dict[str, int | str]] = {}
        for member in sorted(store.accounts(usage_index_name(number, prefix), now)):
            if not member.isdigit():
                continue
            if fields := store.claim(usage_name(member, number, prefix), epoch, now):
                readings[int(member)] = fields
        rows += _file(day, readings, read_at)
        accounts += len(readings)
    return Rollup(days=2, accounts=accounts, rows=rows)


def _file(day: date, readings: dict[int, dict[str, int | str]], read_at: datetime) -> int:
    """Write one day's readings, taken at ``read_at``; returns how many key-days it wrote."""
    by_account = {account_id: tallies_by_key(fields) for account_id, fields in readings.items()}
    wanted = {key_id for tallies in by_account.values() for key_id in tallies}
    # Keys deleted since (their account was), or never ours: nothing to file them under.
    owners = dict(ApiKey.objects.filter(pk__in=wanted).values_list("pk", "account_id"))
    with transaction.atomic():
        # Roll-ups of the same accounts take turns, so that each files onto what the one
        # before it wrote.
        locked = Account.objects.select_for_update(no_key=True).filter(pk__in=readings)
        list(locked.order_by("pk").values_list("pk"))
        stored = DailyUsage.objects.filter(day=day, api_key_id__in=owners)
        rows = {
            row["api_key_id"]: row
            for row in stored.values("api_key_id", "rolled_up_at", *FILED_COLUMNS)
        }
        written = []
        for account_id, fields in readings.items():
            epoch = str(fields.get("epoch", ""))
            for key_id, live in sorted(by_account[account_id].items()):
                row = rows.get(key_id)
                # A roll-up that read Redis before another wrote never overwrites it: with a
                # restart in between, it would add the old life's counts a second time.
                if owners.get(key_id) != account_id or (row and row["rolled_up_at"] > read_at):
                    continue
                written.append(
                    DailyUsage(
                        day=day,
                        account_id=account_id,
                        api_key_id=key_id,
                        limits=limits_of(fields),
                        rolled_up_at=read_at,
                        **filed(Filed.of(row) if row else None, epoch, live).columns(),
                    )
                )
        DailyUsage.objects.bulk_create(
            written,
            update_conflicts=True,
            unique_fields=("day", "api_key"),
            update_fields=(*FILED_COLUMNS, "limits", "rolled_up_at"),
        )
    return len(written)


def usage_purge(*, today: date | None = None) -> int:
    """Delete the days older than ``RETENTION_DAYS`` (today is the first of them)."""
    first_kept = (today or utc_today()) - timedelta(days=RETENTION_DAYS - 1)
    deleted, _ = DailyUsage.objects.filter(day__lt=first_kept).delete()
    return deleted
