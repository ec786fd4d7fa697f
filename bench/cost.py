"""What the parts of a request cost, in instructions the serving process executes.

    python -m bench.cost          (after `make bench`, which prepares its database and key)

Each case runs the WSGI application in one process, as a gunicorn worker calls it, against the
bench's PostgreSQL and Redis, under valgrind's callgrind, twice: with WARMUP requests and with
WARMUP + N. The difference, divided by N, is what one warm request costs, start-up and warm-up
cancelled out. Instruction counts repeat from run to run where timings on a shared 2-core
machine do not: with one hash seed for every process (``PYTHONHASHSEED``), two runs of a case
agree to a few dozen instructions a request; with a seed each, they moved by up to ~8 k, and
more with a smaller N, which once measured the request log (~50 k) at 2 k. PostgreSQL's and
Redis's own work is not in the counts (the benchmark's req/s has that). A part is priced by
taking it away: the stack less the same stack with keys and limits off
(``PETSTORE_OPEN_FOR_BENCHMARK``), or with the request log off; and the open stack with one bare
Redis round trip (``bench/bare.py``) prices the round trip alone.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bench.run import PRODUCTION_VENV, ROOT, SERVER_ENV, SERVER_PYTHON, issue_key
from bench.scale import seed_pets

WARMUP = 100
N = 500
STACK = "petstore.wsgi:application"
FLOOR = "bench.floor:application"
BARE = "bench.bare:application"
LIST = "/v1/pets?limit=20"
GET = "/v1/pets/5000"
WHOLE = "list: the whole request"
OPEN = "list: keys + limits off"
BARE_ROUND_TRIP = "list: off, one bare Redis round trip"
LOG_OFF = "list: request log off"

# (label, application, path, extra environment)
CASES: list[tuple[str, str, str, dict[str, str]]] = [
    (WHOLE, STACK, LIST, {}),
    (OPEN, STACK, LIST, {"PETSTORE_OPEN_FOR_BENCHMARK": "1"}),
    (BARE_ROUND_TRIP, BARE, LIST, {"PETSTORE_OPEN_FOR_BENCHMARK": "1"}),
    (LOG_OFF, STACK, LIST, {"REQUEST_LOG": "0"}),
    ("list: the floor", FLOOR, LIST, {}),
    ("get: the whole request", STACK, GET, {}),
    ("get: the floor", FLOOR, GET, {}),
]


def serve(app_path: str, path: str, key: str, count: int) -> None:
    """The child: ``count`` requests straight into the WSGI callable, bodies read."""
    import importlib

    module, _, name = app_path.partition(":")
    app = getattr(importlib.import_module(module), name)
    route, _, query = path.partition("?")
    environ_base: dict[str, Any] = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": route,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8801",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "127.0.0.1:8801",
        "HTTP_AUTHORIZATION": f"Bearer {key}",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }
    statuses = set()

    def start_response(status: str, headers: list[tuple[str, str]], *_: Any) -> None:
        statuses.add(status)

    for _ in range(count):
        environ = {**environ_base, "wsgi.input": io.BytesIO(b"")}
        body = app(environ, start_response)
        b"".join(body)
        if hasattr(body, "close"):
            body.close()
    if statuses != {"200 OK"}:
        raise SystemExit(f"{app_path} {path} answered {statuses}")


def instructions(app: str, path: str, key: str, env: dict[str, str], count: int) -> int:
    with tempfile.TemporaryDirectory() as out:
        result = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}/callgrind.out",
                SERVER_PYTHON,
                "-m",
                "bench.cost",
                "--child",
                app,
                path,
                key,
                str(count),
            ],
            cwd=ROOT,
            # One hash seed for every run: with a seed of its own, each process lays out its
            # dicts and sets differently, and what a request costs moves with it.
            env={**os.environ, **SERVER_ENV, "LOG_LEVEL": "WARNING", "PYTHONHASHSEED": "0", **env},
            capture_output=True,
            text=True,
            check=False,
        )
    found = re.search(r"Collected : (\d+)", result.stderr)
    if result.returncode != 0 or found is None:
        raise SystemExit(f"callgrind failed for {app} {path}:\n{result.stderr[-2000:]}")
    return int(found[1])


def per_request(case: tuple[str, str, str, dict[str, str]], key: str) -> int:
    _, app, path, env = case
    warm = instructions(app, path, key, env, WARMUP)
    loaded = instructions(app, path, key, env, WARMUP + N)
    return round((loaded - warm) / N)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--child", nargs=4, metavar=("APP", "PATH", "KEY", "COUNT"))
    options = parser.parse_args()
    if options.child:
        app, path, key, count = options.child
        serve(app, path, key, int(count))
        return
    if not PRODUCTION_VENV.exists():
        raise SystemExit("Run `make bench` first: it installs the servers' environment.")
    seed_pets(10_000)
    key = issue_key()
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        costs = dict(
            zip(
                [label for label, *_ in CASES],
                pool.map(lambda case: per_request(case, key), CASES),
                strict=True,
            )
        )
    print(f"{'':40} instructions per request ({N} after {WARMUP} of warm-up)")
    for label, cost in costs.items():
        print(f"{label:40} {cost:>12,}")
    whole, off = costs[WHOLE], costs[OPEN]
    print(f"{'list: keys + limits (whole less off)':40} {whole - off:>12,}")
    print(f"{'list: of which the bare round trip':40} {costs[BARE_ROUND_TRIP] - off:>12,}")
    print(f"{'list: the request log (whole less off)':40} {whole - costs[LOG_OFF]:>12,}")


if __name__ == "__main__":
    main()
