"""`make bench`'s scale phase: the list at 1,000 and at a million pets, for a common status, for
a rare status and category (one pet in 1,000 each) and for a name few animals have, with the
plan of each query."""

from __future__ import annotations

import argparse
import re

import psycopg

from bench.environment import DATABASE_URL
from bench.wrk import median_run, wrk

RARE_CATEGORY = "Bench rarities"
RARE_NAME = "Ziggy"


def seed_pets(count: int) -> None:
    """``count`` pets in one INSERT … SELECT generate_series: one in 1,000 sold (a rare
    status, to show the (status, id) index at work), the rest available or pending; one in
    1,000 in a rare category; and a name a few animals have, whatever the count (Ziggy: one of
    the first 1,000, 25 of a million), which only an index finds without reading them all."""
    with psycopg.connect(DATABASE_URL, autocommit=True) as db:
        db.execute("TRUNCATE store_order, pets_pet RESTART IDENTITY CASCADE")
        db.execute(
            "INSERT INTO pets_category (name, description) SELECT %s, '' WHERE NOT EXISTS "
            "(SELECT 1 FROM pets_category WHERE name = %s)",
            [RARE_CATEGORY, RARE_CATEGORY],
        )
        db.execute(
            "INSERT INTO pets_pet (name, category_id, status, created_at) "
            "SELECT CASE WHEN g %% 1000 = 700 AND g <= 25000 THEN %s || ' ' || g "
            "ELSE 'Pet ' || g END, "
            "CASE WHEN g %% 1000 = 300 THEN (SELECT id FROM pets_category WHERE name = %s) "
            "ELSE (SELECT min(id) FROM pets_category) END, "
            "CASE WHEN g %% 1000 = 500 THEN 'sold' "
            "WHEN g %% 3 = 0 THEN 'pending' ELSE 'available' END, now() "
            "FROM generate_series(1, %s) AS g",
            [RARE_NAME, RARE_CATEGORY, count],
        )
        db.execute("VACUUM ANALYZE pets_pet")


def rare_category_id() -> int:
    with psycopg.connect(DATABASE_URL) as db:
        row = db.execute("SELECT id FROM pets_category WHERE name = %s", [RARE_CATEGORY]).fetchone()
    assert row is not None
    return int(row[0])


# The first page's query of each scale variant, as the service runs it (petstore.prepared for
# status; the ORM for the other filters: name__icontains is UPPER(name) LIKE UPPER(…)).
PLANNED = {
    "status": "status = %s",
    "categoryId": "category_id IN (%s)",
    "name": 'UPPER("name"::text) LIKE UPPER(%s)',
}


INDEX_IN_PLAN = re.compile(r"(?:Index (?:Only )?Scan using|Bitmap Index Scan on) (\w+)")


def list_plan(name: str, value: object) -> str:
    """The plan of the service's listing query filtered by ``name``, first page, with its values
    bound apart and planned for them, as the service's connections run it."""
    with psycopg.connect(DATABASE_URL, options="-c plan_cache_mode=force_custom_plan") as db:
        rows = db.execute(
            "EXPLAIN SELECT id, name, category_id, status FROM pets_pet "  # noqa: S608
            f"WHERE id > %s AND {PLANNED[name]} ORDER BY id LIMIT %s",
            [0, value, 21],
        ).fetchall()
    return "\n".join(row[0] for row in rows)


def measure_scale(key: str, options: argparse.Namespace) -> dict[str, object]:
    """The same list requests at 1,000 and at ``--scale`` pets, and each query's plan."""
    seed_pets(1_000)
    filters = {
        "available": ("status", "available"),
        "sold": ("status", "sold"),
        "categoryId": ("categoryId", rare_category_id()),
        "name": ("name", RARE_NAME.lower()),
    }
    scale: dict[str, dict[int, float]] = {variant: {} for variant in filters}
    for count in (1_000, options.scale):
        seed_pets(count)
        for variant, (name, value) in filters.items():
            path = f"/v1/pets?{name}={value}&limit=20"
            wrk("stack", "GET", path, key, 2)
            scale_runs = [
                wrk("stack", "GET", path, key, options.seconds)
                for _ in range(max(1, options.rounds - 1))
            ]
            scale[variant][count] = median_run(scale_runs).p50_ms
    plans = {
        variant: list_plan(name, f"%{value}%" if name == "name" else value)
        for variant, (name, value) in filters.items()
    }
    return {
        variant: {
            "pets": list(p50s),
            "p50_ms": list(p50s.values()),
            "ratio": round(p50s[options.scale] / p50s[1_000], 3),
            "plan": plans[variant],
            "index": ", ".join(sorted(set(INDEX_IN_PLAN.findall(plans[variant])))),
        }
        for variant, p50s in scale.items()
    }
