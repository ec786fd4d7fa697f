"""Usage over time: the limiter's daily tallies, rolled up into PostgreSQL, and read back.

**Gathering** costs the API nothing it did not already pay: the limiter's one script tallies
each request under its account, key, UTC day and outcome in Redis (``tallies``), and nothing is
written to PostgreSQL on the request path.

**The roll-up** (``rollup``) copies today's and yesterday's tallies into ``DailyUsage``, one row
per key and day, and survives a Redis restart that loses them mid-day.

**Reading** (``history``: the admin's chart, ``GET /v1/usage``): the rolled-up rows, with
today taken live from Redis in one round trip and merged as the next roll-up would write it.
"""

from apikeys.usage.history import (
    NEAR_LIMIT_PERCENT,
    RECENT_DAYS,
    UsageDay,
    UsageHistory,
    csv_rows,
    usage_history,
    with_recent_usage,
)
from apikeys.usage.rollup import RETENTION_DAYS, Rollup, usage_purge, usage_rollup
from apikeys.usage.tallies import KINDS, Tally, day_number, usage_store, usage_today, utc_today

__all__ = [
    "KINDS",
    "NEAR_LIMIT_PERCENT",
    "RECENT_DAYS",
    "RETENTION_DAYS",
    "Rollup",
    "Tally",
    "UsageDay",
    "UsageHistory",
    "csv_rows",
    "day_number",
    "usage_history",
    "usage_purge",
    "usage_rollup",
    "usage_store",
    "usage_today",
    "utc_today",
    "with_recent_usage",
]
