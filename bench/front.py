"""The price of the front: the list path through nginx (deploy/) against gunicorn direct.

Both run the same service, with the same number of sync workers, PostgreSQL and Redis:
  direct  bench.servers' stack: gunicorn on a loopback port, as the benchmark always measured it;
  front   deploy/serve.py's stack: nginx on a loopback port, gunicorn behind it on a unix socket.
Rounds alternate between the two. The price is front req/s / direct req/s.

`make bench` runs it with the rest; alone, against a fresh bench database:
    python -m bench.front --rounds 1 --seconds 3
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import tempfile
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bench.environment import BENCH_DB, PORTS, SERVER_ENV, WORKERS
from bench.scale import seed_pets
from bench.servers import issue_key, prepare_database, start
from bench.wrk import Run, median_run, wrk
from deploy.serve import start_front

FRONT_PORT = 8804
PATH = "/v1/pets?limit=20"


@contextlib.contextmanager
def _front_port() -> Iterator[None]:
    # bench.wrk finds its target by name in bench.environment.PORTS; the front is there only
    # while measured.
    PORTS["front"] = FRONT_PORT
    try:
        yield
    finally:
        del PORTS["front"]


def measure_front(key: str, options: argparse.Namespace) -> dict[str, Any]:
    """Median req/s and latencies of the list path, through nginx and direct; needs the stack up."""
    run_dir = Path(tempfile.mkdtemp(prefix="petstore-bench-front-"))
    front = start_front(
        env={**os.environ, **SERVER_ENV},
        listen=f"127.0.0.1:{FRONT_PORT}",
        run_dir=run_dir,
        workers=WORKERS,
    )
    try:
        with _front_port():
            runs: dict[str, list[Run]] = {"front": [], "stack": []}
            for name in runs:
                wrk(name, "GET", PATH, key, 2)  # warm-up
            for _ in range(options.rounds):
                for name, name_runs in runs.items():
                    name_runs.append(wrk(name, "GET", PATH, key, options.seconds))
    finally:
        front.stop()
    medians = {name: median_run(name_runs) for name, name_runs in runs.items()}
    return {
        "variant": "list limit=20",
        "front": asdict(medians["front"]),
        "direct": asdict(medians["stack"]),
        "front_over_direct": round(
            medians["front"].requests_per_second / medians["stack"].requests_per_second, 3
        ),
    }


def report_front(result: dict[str, Any]) -> None:
    print()
    print(f"price of the front, {result['variant']} (stack through nginx / stack direct):")
    for name in ("front", "direct"):
        run = result[name]
        print(
            f"  {name:6} {run['requests_per_second']:8.0f} req/s  p50 {run['p50_ms']:.2f} ms  "
            f"p99 {run['p99_ms']:.2f} ms  non-2xx {run['non_2xx']}  errors {run['socket_errors']}"
        )
    print(f"  front / direct {result['front_over_direct']:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=8)
    options = parser.parse_args()
    print(f"Preparing {BENCH_DB} and 10,000 pets …", flush=True)
    prepare_database()
    seed_pets(10_000)
    key = issue_key()
    stack = start("stack")
    try:
        result = measure_front(key, options)
    finally:
        stack.send_signal(signal.SIGTERM)
        stack.wait(timeout=30)
    report_front(result)


if __name__ == "__main__":
    main()
