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
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import asdict, dataclass
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
# The servers run from an environment installed as production installs it (`uv sync --no-dev`):
# with the test tools in it, DRF imports requests and pygments at start-up (rest_framework.compat)
# and a worker would hold ~5 MB that production never does.
PRODUCTION_VENV = ROOT / "bench" / ".venv-production"
SERVER_PYTHON = str(PRODUCTION_VENV / "bin" / "python")


def install_production_environment() -> None:
    found = shutil.which("uv")
    uv = [found] if found else ["python3", "-m", "uv"]
    env = {"UV_PROJECT_ENVIRONMENT": str(PRODUCTION_VENV)}
    sh(*uv, "sync", "--frozen", "--no-dev", "--quiet", env=env)


# The benchmark's own database, dropped and made again by each run; another of the same prefix
# (BENCH_DATABASE) keeps two runs on one server apart. bench.open_settings serves no other.
BENCH_DB_PREFIX = "petstore_bench"
BENCH_DB = os.environ.get("BENCH_DATABASE", BENCH_DB_PREFIX)
if not BENCH_DB.startswith(BENCH_DB_PREFIX):
    raise SystemExit(f"BENCH_DATABASE must begin with {BENCH_DB_PREFIX}, not {BENCH_DB!r}")
ADMIN_URL = os.environ.get(
    "BENCH_ADMIN_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"
)
DATABASE_URL = ADMIN_URL.rsplit("/", 1)[0] + "/" + BENCH_DB
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
WORKERS = int(os.environ.get("BENCH_WORKERS", "3"))
CONNECTIONS = 16
PORTS = {"stack": 8801, "floor": 8802, "open": 8803, "bare": 8804}
# The settings of the open stack: keys and limits switched off (bench/open_settings.py).
OPEN_SETTINGS = "bench.open_settings"
SERVER_ENV = {
    "DATABASE_URL": DATABASE_URL,
    "REDIS_URL": REDIS_URL,
    "SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "DEBUG": "0",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "LOG_LEVEL": "WARNING",
    # The memory run signs in to the admin over plain HTTP.
    "SECURE_COOKIES": "0",
    # The document and the refusals are measured without a key, from one address: its limit
    # would refuse all but 60 a minute.
    "PETSTORE_ANONYMOUS_RATE": "1000000000/m",
}


@dataclass
class Run:
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    non_2xx: int
    socket_errors: int
    requests: int


def sh(*command: str, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(
        command, cwd=ROOT, env={**os.environ, **(env or {})}, capture_output=True, text=True
    )
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}")
    return result.stdout


def prepare_database() -> None:
    with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {BENCH_DB}")
    sh(PYTHON, "manage.py", "migrate", "--verbosity", "0", env=SERVER_ENV)
    sh(PYTHON, "manage.py", "seed_demo", env=SERVER_ENV)


def issue_key() -> str:
    from bench.crowd import setup  # it imports this module

    setup()  # the windows are read from the service's declaration, under its settings
    from apikeys.windows import WINDOWS

    limits = [part for w in WINDOWS for part in (f"--per-{w.name}", "1000000000")]
    output = sh(
        PYTHON,
        "manage.py",
        "createapikey",
        "--plan",
        "enterprise",
        "--name",
        "bench",
        *limits,
        env=SERVER_ENV,
    )
    return output.strip().splitlines()[-1]


def start(name: str) -> subprocess.Popen[bytes]:
    app = {
        "floor": "bench.floor:application",
        "bare": "bench.bare:application",
    }.get(name, "petstore.wsgi:application")
    # Metrics written to files, as deployed (deploy.serve): prometheus-client's multiprocess
    # mode, a fresh directory per server.
    metrics = tempfile.mkdtemp(prefix=f"petstore-bench-metrics-{name}-")
    env = {**os.environ, **SERVER_ENV, "PROMETHEUS_MULTIPROC_DIR": metrics}
    if name in ("open", "bare"):
        env["DJANGO_SETTINGS_MODULE"] = OPEN_SETTINGS
    log = (ROOT / "bench" / "results" / f"{name}.log").open("ab")
    process = subprocess.Popen(
        [
            SERVER_PYTHON,
            "-m",
            "gunicorn",
            app,
            "--workers",
            str(WORKERS),
            "--worker-class",
            "sync",
            "--bind",
            f"127.0.0.1:{PORTS[name]}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=log,  # the request log, one JSON line per request, as in production
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{PORTS[name]}/v1/nowhere", timeout=1)
        except urllib.error.HTTPError:
            return process  # answering (with a 401/404): up
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"{name} did not start")


def wrk(name: str, method: str, path: str, key: str, seconds: int, script: str = "") -> Run:
    """``seconds`` of requests to ``name``'s server with ``key``, or with the keys ``script``
    (wrk's Lua) puts on each request when ``key`` is empty."""
    url = f"http://127.0.0.1:{PORTS[name]}{path}"
    if method == "POST":
        script = (
            'wrk.method = "POST"\n'
            'wrk.body = \'{"name": "Bench", "categoryId": 1}\'\n'
            'wrk.headers["Content-Type"] = "application/json"\n'
        )
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as lua:
        lua.write(script)
        lua.flush()
        out = subprocess.run(
            [
                "wrk",
                "-t2",
                f"-c{CONNECTIONS}",
                f"-d{seconds}s",
                "--latency",
                *(["-H", f"Authorization: Bearer {key}"] if key else []),
                "-s",
                lua.name,
                url,
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    return Run(
        requests_per_second=float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1]),  # type: ignore[index]
        p50_ms=_latency(out, "50%"),
        p99_ms=_latency(out, "99%"),
        non_2xx=int(m[1]) if (m := re.search(r"Non-2xx or 3xx responses: (\d+)", out)) else 0,
        socket_errors=sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out)),
        requests=int(re.search(r"(\d+) requests in", out)[1]),  # type: ignore[index]
    )


def _latency(out: str, percentile: str) -> float:
    value, unit = re.search(rf"{percentile}\s+([\d.]+)(us|ms|s)", out).groups()  # type: ignore[union-attr]
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def median_run(runs: list[Run]) -> Run:
    return Run(
        requests_per_second=statistics.median(r.requests_per_second for r in runs),
        p50_ms=statistics.median(r.p50_ms for r in runs),
        p99_ms=statistics.median(r.p99_ms for r in runs),
        non_2xx=sum(r.non_2xx for r in runs),
        socket_errors=sum(r.socket_errors for r in runs),
        requests=sum(r.requests for r in runs),
    )


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
    from bench.crowd import setup  # it imports this module

    setup()
    print(f"Preparing {BENCH_DB} and 10,000 pets …", flush=True)
    install_production_environment()
    prepare_database()
    if options.only == "webhooks":
        from bench.webhooks import measure_webhooks, report_webhooks  # it imports this module

        report_webhooks(measure_webhooks(options))
        return
    if options.only == "feed":
        from bench.feed import measure_feed, report_feed  # it imports this module

        stack = start("stack")
        try:
            feed = measure_feed(options)
        finally:
            stack.send_signal(signal.SIGTERM)
            stack.wait(timeout=30)
        report_feed(feed)
        return
    from bench.memory import create_admin  # it imports this module

    create_admin()
    from bench.scale import seed_pets  # it imports this module

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
    from bench.report import report  # it imports this module

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
    from bench.crowd import measure_crowd  # it imports this module
    from bench.feed import measure_feed  # it imports this module
    from bench.front import measure_front  # it imports this module
    from bench.memory import measure_memory  # it imports this module
    from bench.openapi import measure_openapi  # it imports this module
    from bench.scale import measure_scale  # it imports this module
    from bench.webhooks import measure_webhooks  # it imports this module

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
