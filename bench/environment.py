"""Where the benchmark runs, read once from the environment: its own database and Redis, the
servers' ports, workers and settings, and the Python they run under. Every phase of
``make bench`` imports these from here; ``bench.run``, the entry point, imports the phases."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
# The servers run from an environment installed as production installs it (`uv sync --no-dev`):
# with the test tools in it, DRF imports requests and pygments at start-up (rest_framework.compat)
# and a worker would hold ~5 MB that production never does.
PRODUCTION_VENV = ROOT / "bench" / ".venv-production"
SERVER_PYTHON = str(PRODUCTION_VENV / "bin" / "python")

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
