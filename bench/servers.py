"""What every phase of ``make bench`` stands up: the servers' environment, the benchmark's
database, the service's settings in this process, a key whose limits never interfere, and a
server of one variant (``bench.environment.PORTS``) on loopback."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import django
import psycopg

from bench.environment import (
    ADMIN_URL,
    BENCH_DB,
    OPEN_SETTINGS,
    PORTS,
    PRODUCTION_VENV,
    PYTHON,
    ROOT,
    SERVER_ENV,
    SERVER_PYTHON,
    WORKERS,
)


def sh(*command: str, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(
        command, cwd=ROOT, env={**os.environ, **(env or {})}, capture_output=True, text=True
    )
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}")
    return result.stdout


def install_production_environment() -> None:
    found = shutil.which("uv")
    uv = [found] if found else ["python3", "-m", "uv"]
    env = {"UV_PROJECT_ENVIRONMENT": str(PRODUCTION_VENV)}
    sh(*uv, "sync", "--frozen", "--no-dev", "--quiet", env=env)


def prepare_database() -> None:
    with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {BENCH_DB}")
    sh(PYTHON, "manage.py", "migrate", "--verbosity", "0", env=SERVER_ENV)
    sh(PYTHON, "manage.py", "seed_demo", env=SERVER_ENV)


def setup() -> None:
    """Keys are made as the service makes them, under the servers' settings."""
    os.environ.update(SERVER_ENV)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "petstore.settings")
    django.setup()


def issue_key() -> str:
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
