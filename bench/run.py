"""`make bench`: the service against its raw floor, measured in one run.

Starts, on loopback, the production configuration (gunicorn, PostgreSQL, Redis) of:
  stack  the service as deployed;
  open   the same with authentication and rate limiting switched off (their price:
         bench/open_settings.py);
  bare   open and one bare Redis round trip per request (bench/bare.py: the least keys and
         limits could cost, with the one round trip a request needs);
  floor  bench/floor.py, the same SQL and json.dumps with no framework;
seeds 10,000 pets and an Enterprise key whose limits never interfere, then drives each variant
with wrk, alternating stack and floor round by round so that both see the same machine, and
reports medians and the ratios stack / floor. Also: the list at 1,000 and 1,000,000 pets (and
its query plan), a worker's memory after 10k and 50k requests, with /readyz probed every
second and one admin sign-in, as a deployed worker serves them, and the OpenAPI document beside
a refusal (bench/openapi.py).

Writes bench/results/latest.json. Ratios, not absolute figures, are what hold from one machine
(or one noisy minute) to the next.
"""

from __future__ import annotations

import argparse
import signal
import subprocess
from dataclasses import asdict

from bench.crowd import measure_crowd
from bench.environment import BENCH_DB, CONNECTIONS, PORTS, WORKERS
from bench.feed import measure_feed, report_feed
from bench.front import measure_front
from bench.memory import create_admin, measure_memory
from bench.openapi import measure_openapi
from bench.report import report
from bench.scale import measure_scale, seed_pets
from bench.servers import install_production_environment, issue_key, prepare_database, setup, start
from bench.webhooks import measure_webhooks, report_webhooks
from bench.wrk import Run, median_run, wrk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--scale", type=int, default=1_000_000, help="pets for the scale run")
    parser.add_argument(
        "--variants-only",
        action="store_true",
        help="only the variants' ratios, for a quick look between steps (no front, memory, "
        "scale, and no results file)",
    )
    parser.add_argument(
        "--crowds", type=int, nargs="*", help="keys in rotation (20,000 and 200,000 unless told)"
    )
    parser.add_argument(
        "--only",
        choices=["webhooks", "feed"],
        help="that phase alone, on a database of its own (its figures printed, no results file)",
    )
    options = parser.parse_args()
    setup()
    print(f"Preparing {BENCH_DB} and 10,000 pets …", flush=True)
    install_production_environment()
    prepare_database()
    if options.only == "webhooks":
        report_webhooks(measure_webhooks(options))
        return
    if options.only == "feed":
        stack = start("stack")
        try:
            feed = measure_feed(options)
        finally:
            stack.send_signal(signal.SIGTERM)
            stack.wait(timeout=30)
        report_feed(feed)
        return
    create_admin()
    seed_pets(10_000)
    key = issue_key()
    servers = {name: start(name) for name in PORTS}
    try:
        if options.variants_only:
            measure_variants(servers, key, options)
            return
        results = measure(servers, key, options)
    finally:
        for server in servers.values():
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
    report(results)


VARIANTS = [
    ("list limit=20", "GET", "/v1/pets?limit=20"),
    ("list limit=100", "GET", "/v1/pets?limit=100"),
    ("list status=available limit=20", "GET", "/v1/pets?status=available&limit=20"),
    ("get by id", "GET", "/v1/pets/5000"),
    ("create", "POST", "/v1/pets"),
]


def measure_variants(
    servers: dict[str, subprocess.Popen[bytes]], key: str, options: argparse.Namespace
) -> list[dict[str, object]]:
    rows = []
    for label, method, path in VARIANTS:
        targets = ["stack", "floor"] + (["open", "bare"] if label == "list limit=20" else [])
        for name in targets:
            wrk(name, method, path, key, 2)  # warm-up
        runs: dict[str, list[Run]] = {name: [] for name in targets}
        for _ in range(options.rounds):
            for name in targets:
                runs[name].append(wrk(name, method, path, key, options.seconds))
        medians = {name: median_run(r) for name, r in runs.items()}
        row = {
            "variant": label,
            **{name: asdict(run) for name, run in medians.items()},
            "stack_over_floor": round(
                medians["stack"].requests_per_second / medians["floor"].requests_per_second, 3
            ),
        }
        if "open" in medians:
            for name in ("stack", "bare"):
                row[f"{name}_over_open"] = round(
                    medians[name].requests_per_second / medians["open"].requests_per_second, 3
                )
        rows.append(row)
        rates = ", ".join(f"{n} {m.requests_per_second:.0f}" for n, m in medians.items())
        print(f"  {label}: stack/floor {row['stack_over_floor']} (req/s: {rates})", flush=True)
        if "stack_over_open" in row:
            print(
                f"  {label}: stack/open {row['stack_over_open']}, "
                f"bare/open {row['bare_over_open']}",
                flush=True,
            )
    return rows


def measure(
    servers: dict[str, subprocess.Popen[bytes]], key: str, options: argparse.Namespace
) -> dict[str, object]:
    # The variants first, on the machine as the run found it; then the front's price, before
    # the memory and scale runs restart the stack and reseed the pets.
    rows = measure_variants(servers, key, options)
    front = measure_front(key, options)
    openapi = measure_openapi(options)
    # The crowd: many keys in rotation, on a stack of its own.
    servers["stack"].send_signal(signal.SIGTERM)
    servers["stack"].wait(timeout=30)
    crowd = measure_crowd(key, options)
    # Memory, as deployed: a fresh stack, one admin sign-in, /readyz probed every second.
    servers["stack"] = start("stack")
    memory = measure_memory(servers["stack"], key)

    scale = measure_scale(key, options)
    # Last, as they replace the events: the webhook workers, then the feed through this stack.
    webhooks = measure_webhooks(options)
    feed = measure_feed(options)
    return {
        "workers": WORKERS,
        "worker_class": "sync",
        "connections": CONNECTIONS,
        "rounds": options.rounds,
        "seconds": options.seconds,
        "variants": rows,
        "front": front,
        "openapi": openapi,
        "crowd": crowd,
        "memory": memory,
        "scale": scale,
        "webhooks": webhooks,
        "feed": feed,
    }


if __name__ == "__main__":
    main()
