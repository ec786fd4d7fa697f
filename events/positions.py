"""The feed's order: each event is given its position once it has committed, by one pass at a
time, in the order the passes commit.

A position is never given to an event still uncommitted, and every position a pass gives is
greater than every position given before it and visible only when the pass commits: a client
that follows the feed's ``Link`` from the last position it saw misses no event and sees none
twice, whatever order the writers' transactions commit in. A transaction left open anywhere on
the server delays only its own events (the order by writing transaction this replaces waited
for every transaction on the server, in every database).
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from django.db import DEFAULT_DB_ALIAS, connections

from events.models import Event
from events.selectors import own_version
from petstore.conditional import changed
from petstore.metrics import EVENTS

# Events placed per pass, at most.
BATCH = 1000
# PostgreSQL's advisory lock that makes passes take turns (any number unique to this use).
_TURN = 7_305_801
_SEQUENCE = "events_event_position"  # made by events.0002


def place_committed() -> int:
    """Give the committed events that have none a position; how many were placed. A pass that
    finds another under way leaves the work to it."""
    connection = connections[DEFAULT_DB_ALIAS]
    with connection.cursor() as cursor:
        postgresql = connection.vendor == "postgresql"
        cursor.execute(_place_sql(connection.vendor), [_TURN, BATCH] if postgresql else [])
        rows = cursor.fetchall()
    placed = Counter(kind for kind, _ in rows)
    # Newly listed: a pass that another pass had to wait for may place an event after a
    # request has read its feed's version (petstore.conditional).
    changed(*{own_version(account_id) for _, account_id in rows})
    for kind, count in placed.items():
        EVENTS.labels(kind).inc(count)
    return placed.total()


@cache
def _place_sql(vendor: str) -> str:
    table = Event._meta.db_table
    if vendor != "postgresql":
        # SQLite commits one writer at a time, in id order: an event's id is its position.
        return (
            f"UPDATE {table} SET position = id WHERE position IS NULL AND NOT test "  # noqa: S608
            "RETURNING type, account_id"
        )
    # One statement, so one round trip and its own transaction. The turn is taken before any
    # position is drawn and held until the pass commits; the UPDATE checks again that a row is
    # still unplaced, for a row the previous pass placed after this statement's snapshot.
    return (
        "WITH turn AS MATERIALIZED (SELECT pg_try_advisory_xact_lock(%s) AS ours), "  # noqa: S608
        "placed AS MATERIALIZED ("
        f"  SELECT id, nextval('{_SEQUENCE}') AS position FROM ("
        f"    SELECT id FROM {table} WHERE position IS NULL AND NOT test"
        "     AND (SELECT ours FROM turn)"
        "     ORDER BY id LIMIT %s) AS waiting) "
        f"UPDATE {table} SET position = placed.position FROM placed "
        f"WHERE {table}.id = placed.id AND {table}.position IS NULL "
        f"RETURNING {table}.type, {table}.account_id"
    )
