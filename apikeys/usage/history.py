"""Reading the usage history: an account's days (the admin's chart, ``GET /v1/usage``, the CSV
export), with today taken live from the tallies as the next roll-up would file it, and the
account list's recent figures."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from django.db.models import F, FloatField, IntegerField, Max, OuterRef, QuerySet, Subquery, Sum
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce, NullIf

from apikeys.models import Account, ApiKey, DailyUsage
from apikeys.usage.rollup import FILED_COLUMNS, RETENTION_DAYS, Filed, filed
from apikeys.usage.tallies import (
    KINDS,
    Tally,
    day_number,
    limits_of,
    tallies_by_key,
    usage_today,
    utc_today,
)
from apikeys.windows import DAY, WINDOWS, Limits, WindowSpec

# The account list's window, today included, and the share of the daily limit that makes an
# account "near its limit" on a day.
RECENT_DAYS = 7
NEAR_LIMIT_PERCENT = 80
# The window a day's admitted requests are measured against.
_DAY = next(w.name for w in WINDOWS if w.seconds == DAY)


@dataclass(frozen=True)
class UsageDay:
    day: date
    admitted: int
    refused: int  # rate limited
    banned: int  # refused while the key was banned
    # The limits that day by window name, as the limiter recorded them: none on a day without
    # requests, and none of a window added since.
    limits: dict[str, int] = field(default_factory=dict)

    def limit(self, window: WindowSpec) -> int | None:
        return self.limits.get(window.name)

    @property
    def per_day(self) -> int | None:
        """The day window's limit: what the day's admitted requests are measured against."""
        return self.limits.get(_DAY)

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


def usage_history(
    *, account_id: int, limits: Limits, days: int, today: date | None = None
) -> UsageHistory:
    """The last ``days`` UTC days of the account ``account_id``, whose limits are now
    ``limits``, today included and live: one SQL query and one Redis round trip."""
    today = today or utc_today()
    first = today - timedelta(days=days - 1)
    rows = DailyUsage.objects.filter(account_id=account_id).between(first, today)
    tallies: dict[tuple[date, int], Tally] = {}
    day_limits: dict[date, dict[str, int]] = {}
    today_rows: dict[int, dict[str, Any]] = {}
    for row in rows.values("day", "api_key_id", "limits", *FILED_COLUMNS):
        tallies[row["day"], row["api_key_id"]] = Tally(*(row[kind] for kind in KINDS))
        day_limits[row["day"]] = row["limits"]
        if row["day"] == today:
            today_rows[row["api_key_id"]] = row
    live = usage_today(account_id, day_number(today))
    for key_id, tally in _live_today(live, today_rows).items():
        tallies[today, key_id] = tally
    day_limits[today] = _today_limits(live, day_limits.get(today), limits)

    totals: dict[date, Tally] = defaultdict(Tally)
    per_key: dict[int, dict[date, Tally]] = defaultdict(dict)
    for (day, key_id), tally in tallies.items():
        totals[day] += tally
        per_key[key_id][day] = tally
    calendar = [first + timedelta(days=n) for n in range(days)]

    def series(counts: dict[date, Tally]) -> list[UsageDay]:
        return [_usage_day(day, counts.get(day), day_limits.get(day)) for day in calendar]

    return UsageHistory(
        days=series(totals), keys={key_id: series(per_key[key_id]) for key_id in sorted(per_key)}
    )


def _live_today(live: dict[str, int | str], rows: dict[int, dict[str, Any]]) -> dict[int, Tally]:
    """Today as the next roll-up would file it."""
    epoch = str(live["epoch"]) if "epoch" in live else None
    counted = tallies_by_key(live)
    return {
        key_id: filed(
            Filed.of(rows[key_id]) if key_id in rows else None,
            epoch,
            counted.get(key_id, Tally()),
        ).counts
        for key_id in counted.keys() | rows.keys()
    }


def _today_limits(
    live: dict[str, int | str], rolled_up: dict[str, int] | None, current: Limits
) -> dict[str, int]:
    return limits_of(live) or rolled_up or current.by_name()


def _usage_day(day: date, tally: Tally | None, limits: dict[str, int] | None) -> UsageDay:
    return UsageDay(day, *(tally or Tally()).counts, limits or {})


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

    per_day = Cast(KT(f"limits__{_DAY}"), FloatField())
    share = Cast(Sum("admitted"), FloatField()) * 100.0 / NullIf(Max(per_day), 0.0)
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
    history = usage_history(
        account_id=account.pk, limits=account.limits, days=RETENTION_DAYS, today=today
    )
    prefixes = dict(ApiKey.objects.filter(pk__in=history.keys).values_list("pk", "prefix"))
    lines: list[list[Any]] = [
        ["date", "key", "admitted", "refused", "banned", *(w.per for w in WINDOWS)]
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
        *(day.limits.get(w.name, "") for w in WINDOWS),
    ]
