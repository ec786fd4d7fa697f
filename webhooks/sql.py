"""The statements webhooks' dispatch runs that the ORM cannot write (``webhooks.services``'s
``fan_out`` and ``lease_due``): only names from the models are formatted in, every value is a
parameter."""

from __future__ import annotations

from functools import cache

from events.models import Event
from webhooks.models import AttemptError, Delivery, DeliveryState, Endpoint, Lane


def fan_out(vendor: str, count: int) -> str:
    # Written by hand: the ORM has no INSERT … SELECT. Only names from the models are formatted
    # in; every value is a parameter. A disabled endpoint's delivery is made failed, unsent,
    # saying why: owed, for ``recover`` once it is enabled again. An event of every account's
    # waits in the catalogue's lane, behind the account's own (``Lane``).
    delivery, endpoint, event = (
        Delivery._meta.db_table,
        Endpoint._meta.db_table,
        Event._meta.db_table,
    )
    if vendor == "postgresql":
        lists_type = "en.events @> jsonb_build_array(ev.type)"  # the GIN index's operator
    else:
        lists_type = "EXISTS (SELECT 1 FROM json_each(en.events) WHERE json_each.value = ev.type)"
    pending, failed = DeliveryState.PENDING.value, DeliveryState.FAILED.value
    return (
        f"INSERT INTO {delivery} "  # noqa: S608
        "(endpoint_id, event_id, state, attempts, next_attempt_at, created_at, last_attempt_at, "
        "last_error, last_error_kind, last_response, lane) "
        "SELECT en.id, ev.id, "
        f"CASE WHEN en.enabled THEN '{pending}' ELSE '{failed}' END, 0, "
        "CASE WHEN en.enabled THEN %(now)s END, %(now)s, "
        "CASE WHEN en.enabled THEN NULL ELSE %(now)s END, "
        "CASE WHEN en.enabled THEN '' ELSE %(disabled)s || en.disabled_reason END, "
        f"CASE WHEN en.enabled THEN '' ELSE '{AttemptError.DISABLED.value}' END, '', "
        f"CASE WHEN ev.account_id IS NULL THEN {Lane.CATALOGUE.value} ELSE {Lane.OWN.value} END "
        f"FROM {event} ev JOIN {endpoint} en ON {lists_type} "
        "AND en.created_at <= ev.created_at "
        "AND (ev.account_id IS NULL OR ev.account_id = en.account_id) "
        f"WHERE ev.id IN ({', '.join(f'%(e{n})s' for n in range(count))}) "
        "ON CONFLICT DO NOTHING"
    )


@cache
def ready(vendor: str, one_endpoint: bool) -> str:
    delivery, endpoint = Delivery._meta.db_table, Endpoint._meta.db_table
    if one_endpoint:
        which = "id = %(endpoint)s"
    else:
        which = (
            f"id IN (SELECT endpoint_id FROM {delivery} "  # noqa: S608
            f"WHERE state = '{DeliveryState.PENDING.value}' AND next_attempt_at <= %(now)s)"
        )
    lock = ""
    if vendor == "postgresql":
        lock = "FOR UPDATE" if one_endpoint else "FOR UPDATE SKIP LOCKED"
    return (
        f"SELECT id FROM {endpoint} WHERE enabled "  # noqa: S608
        f"AND (paused_until IS NULL OR paused_until <= %(now)s) AND {which} "
        f"ORDER BY id LIMIT %(batch)s {lock}"
    )


@cache
def lease(endpoints: int) -> str:
    # Written by hand: the ORM cannot number each endpoint's due deliveries and lease the first
    # of them in one statement. Only names from the models are formatted in.
    delivery, endpoint = Delivery._meta.db_table, Endpoint._meta.db_table
    pending = DeliveryState.PENDING.value
    ready = ", ".join(f"%(e{n})s" for n in range(endpoints))

    def leasable(table: str) -> str:
        return (
            f"{table}.state = '{pending}' AND {table}.next_attempt_at <= %(now)s "
            f"AND ({table}.leased_until IS NULL OR {table}.leased_until <= %(now)s)"
        )

    # Numbered once, in a CTE of its own, then leased by primary key: an endpoint's due
    # deliveries (its own events' lane first, then the catalogue's; the oldest due first in each)
    # are dealt in turn to a run for each of its places, up to services.RUN each, and the runs
    # of its free places are leased (a worker coming back for more leaves the rest to its
    # other places'). Only the due deliveries of endpoints with a place free are read: what a
    # hanging receiver is owed piles up unread. Every pass that leases an endpoint's
    # deliveries holds its row (lease_due): none can have leased these meanwhile. A lease
    # takes a place until it ends or its worker gives it back, whatever the delivery's state:
    # the one rule that bounds what is in flight, however the rows were queued.
    return (
        "WITH ready AS ("  # noqa: S608
        " SELECT id, CASE WHEN failures >= %(trial_after)s THEN 1 ELSE %(places)s END AS places"
        f" FROM {endpoint} WHERE id IN ({ready})), "
        "busy AS ("
        f" SELECT endpoint_id, count(DISTINCT run) AS n FROM {delivery}"
        " WHERE leased_until > %(now)s"
        f" AND endpoint_id IN ({ready}) GROUP BY endpoint_id), "
        "room AS ("
        " SELECT ready.id, ready.places, ready.places - COALESCE(busy.n, 0) AS free"
        " FROM ready LEFT JOIN busy ON busy.endpoint_id = ready.id"
        " WHERE ready.places > COALESCE(busy.n, 0)), "
        "due AS ("
        " SELECT d.id, d.endpoint_id, d.lane, d.next_attempt_at, row_number() OVER ("
        "  PARTITION BY d.endpoint_id ORDER BY d.lane, d.next_attempt_at, d.id) - 1 AS turn"
        f" FROM {delivery} d WHERE d.endpoint_id IN (SELECT id FROM room) AND {leasable('d')}), "
        "picked AS MATERIALIZED ("
        " SELECT due.id, due.turn %% room.places AS place"
        " FROM due JOIN room ON room.id = due.endpoint_id"
        " WHERE due.turn %% room.places < room.free AND due.turn < room.places * %(run)s"
        " ORDER BY due.lane, due.next_attempt_at LIMIT %(batch)s) "
        f"UPDATE {delivery} SET leased_until = %(until)s,"
        " run = %(runs_from)s + picked.place FROM picked "
        f"WHERE {delivery}.id = picked.id "
        f"RETURNING {delivery}.id, {delivery}.endpoint_id, {delivery}.run"
    )
