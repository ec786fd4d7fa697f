"""What the parts of a request cost, in instructions the serving process executes.

    python -m bench.cost          (after `make bench`, which prepares its database and key)

Each case runs the WSGI application in one process, as a gunicorn worker calls it, against the
bench's PostgreSQL and Redis, under valgrind's callgrind: WARMUP requests uncounted, then N
counted (instrumentation switched on for them alone, ``callgrind_control -i``), so that start-up,
warm-up and whatever the process did before are left out. Instruction counts repeat from run to
run where timings on a shared 2-core machine do not: with one hash seed for every process
(``PYTHONHASHSEED``), two runs of a case agree to a few dozen instructions a request.
PostgreSQL's and Redis's own work is not in the counts (the benchmark's req/s has that). A part
is priced by taking it away: the stack less the same stack with keys and limits off
(``bench.open_settings``), or with the request log off; and the open stack with one bare
Redis round trip (``bench/bare.py``) prices the round trip alone. Many customers are priced the
same way: the list with 2,000 keys in rotation, each read once by the process before counting,
and with every key found by its record in Redis (the process's key ring emptied before each
request: what a process pays for a key it has not read). The OpenAPI document and its 304 are
priced beside a refusal (the list without a key), the least anyone without a key can ask for.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bench import crowd
from bench.environment import OPEN_SETTINGS, PRODUCTION_VENV, ROOT, SERVER_ENV, SERVER_PYTHON
from bench.scale import seed_pets
from bench.servers import issue_key, setup

WARMUP = 100
N = 500
STACK = "petstore.wsgi:application"
FLOOR = "bench.floor:application"
BARE = "bench.bare:application"
LIST = "/v1/pets?limit=20"
GET = "/v1/pets/5000"
CREATE = "POST /v1/pets"
CREATE_BODY = b'{"name": "Bench", "categoryId": 1}'
WHOLE = "list: the whole request"
OPEN = "list: keys + limits off"
BARE_ROUND_TRIP = "list: off, one bare Redis round trip"
LOG_OFF = "list: request log off"
NOT_MODIFIED = "list: 304 to If-None-Match"
OPENED = {"DJANGO_SETTINGS_MODULE": OPEN_SETTINGS}
# Set in a case's environment: its requests carry the ETag of the first answer.
CONDITIONAL = "BENCH_IF_NONE_MATCH"
CROWD = 2_000  # keys in rotation: more than the counter names' cache holds
IN_ROTATION = f"list: {CROWD:,} keys in rotation"
EACH_BY_RECORD = f"list: {CROWD:,} keys, each by its record"
REFUSED = "refused: the list without a key"
OPENAPI = "openapi: the document, without a key"
OPENAPI_304 = "openapi: 304 to If-None-Match"
DOCUMENT = "/v1/openapi.json"
# Set in a case's environment: the status its requests must answer, when not 200 (201 for POST).
EXPECT = "BENCH_EXPECT"

# Which keys a case's requests carry: the one key, the crowd (each read once before counting),
# the crowd with the process's key ring emptied before each request, or none.
ONE, ROTATION, BY_RECORD, NONE = "one", "rotation", "by-record", "none"

# (label, application, path, extra environment, keys)
CASES: list[tuple[str, str, str, dict[str, str], str]] = [
    (WHOLE, STACK, LIST, {}, ONE),
    (OPEN, STACK, LIST, OPENED, ONE),
    (BARE_ROUND_TRIP, BARE, LIST, OPENED, ONE),
    (LOG_OFF, STACK, LIST, {"REQUEST_LOG": "0"}, ONE),
    (NOT_MODIFIED, STACK, LIST, {CONDITIONAL: "1"}, ONE),
    ("list: the floor", FLOOR, LIST, {}, ONE),
    (IN_ROTATION, STACK, LIST, {}, ROTATION),
    (EACH_BY_RECORD, STACK, LIST, {}, BY_RECORD),
    ("get: the whole request", STACK, GET, {}, ONE),
    ("get: the floor", FLOOR, GET, {}, ONE),
    ("create: the whole request", STACK, CREATE, {}, ONE),
    ("create: the floor", FLOOR, CREATE, {}, ONE),
    (REFUSED, STACK, LIST, {EXPECT: "401 Unauthorized"}, NONE),
    (OPENAPI, STACK, DOCUMENT, {}, NONE),
    (OPENAPI_304, STACK, DOCUMENT, {CONDITIONAL: "1"}, NONE),
]


def serve(app_path: str, request: str, keys_file: str, keys: str, count: int) -> None:
    """The child: ``count`` requests straight into the WSGI callable, bodies read."""
    import importlib

    module, _, name = app_path.partition(":")
    app = getattr(importlib.import_module(module), name)
    method, _, path = request.rpartition(" ")
    route, _, query = path.partition("?")
    body = CREATE_BODY if method == "POST" else b""
    environ_base: dict[str, Any] = {
        "REQUEST_METHOD": method or "GET",
        "PATH_INFO": route,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8801",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "127.0.0.1:8801",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }
    if body:
        environ_base.update(CONTENT_TYPE="application/json", CONTENT_LENGTH=str(len(body)))
    statuses = set()
    etags: list[str] = []

    def start_response(status: str, headers: list[tuple[str, str]], *_: Any) -> None:
        statuses.add(status)
        etags.extend(value for name, value in headers if name == "ETag")

    def send(key: str) -> None:
        environ = {**environ_base, "wsgi.input": io.BytesIO(body)}
        if key:
            environ["HTTP_AUTHORIZATION"] = f"Bearer {key}"
        answer = app(environ, start_response)
        b"".join(answer)
        if hasattr(answer, "close"):
            answer.close()

    pool = [""] if keys == NONE else Path(keys_file).read_text().split()
    if os.environ.get(CONDITIONAL):
        send(pool[0])
        environ_base["HTTP_IF_NONE_MATCH"] = etags[0]
        statuses.clear()
    by_record = keys == BY_RECORD
    if by_record:
        from apikeys.keyring import keyring
    if keys in (ROTATION, BY_RECORD):
        for key in pool:
            send(key)  # each key read once, as by a process in steady use
    chosen = random.Random(0)
    sequence = (
        [pool[0]] * (WARMUP + count)
        if keys in (ONE, NONE)
        else chosen.choices(pool, k=WARMUP + count)
    )
    for key in sequence[:WARMUP]:
        send(key)
    _instrument("on")
    for key in sequence[WARMUP:]:
        if by_record:
            keyring.clear()
        send(key)
    _instrument("off")
    expected = {"201 Created"} if method == "POST" else {"200 OK"}
    if os.environ.get(CONDITIONAL):
        expected = {"304 Not Modified"}
    if os.environ.get(EXPECT):
        expected = {os.environ[EXPECT]}
    if statuses != expected:
        raise SystemExit(f"{app_path} {request} answered {statuses}")


def _instrument(state: str) -> None:
    """Switch callgrind's counting in this process on or off."""
    subprocess.run(
        ["callgrind_control", "-i", state, str(os.getpid())], check=True, capture_output=True
    )


def instructions(
    app: str, path: str, keys_file: str, keys: str, env: dict[str, str], count: int
) -> int:
    with tempfile.TemporaryDirectory() as out:
        # Metrics written to files, as deployed (deploy.serve): prometheus-client's
        # multiprocess mode, whose every count is a write to a shared mapping.
        metrics = Path(out) / "metrics"
        metrics.mkdir()
        result = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--instr-atstart=no",
                f"--callgrind-out-file={out}/callgrind.out",
                SERVER_PYTHON,
                "-m",
                "bench.cost",
                "--child",
                app,
                path,
                keys_file,
                keys,
                str(count),
            ],
            cwd=ROOT,
            # One hash seed for every run: with a seed of its own, each process lays out its
            # dicts and sets differently, and what a request costs moves with it.
            env={
                **os.environ,
                **SERVER_ENV,
                "LOG_LEVEL": "WARNING",
                "PYTHONHASHSEED": "0",
                "PROMETHEUS_MULTIPROC_DIR": str(metrics),
                **env,
            },
            capture_output=True,
            text=True,
            check=False,
        )
    found = re.search(r"Collected : (\d+)", result.stderr)
    if result.returncode != 0 or found is None:
        raise SystemExit(f"callgrind failed for {app} {path}:\n{result.stderr[-2000:]}")
    return int(found[1])


def per_request(case: tuple[str, str, str, dict[str, str], str], files: dict[str, str]) -> int:
    _, app, path, env, keys = case
    keys_file = files[ONE if keys == ONE else ROTATION]
    return round(instructions(app, path, keys_file, keys, env, N) / N)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--child", nargs=5, metavar=("APP", "PATH", "KEYS", "WHICH", "COUNT"))
    parser.add_argument("--case", help="only the cases whose label starts with this")
    options = parser.parse_args()
    if options.child:
        app, path, keys_file, keys, count = options.child
        serve(app, path, keys_file, keys, int(count))
        return
    if not PRODUCTION_VENV.exists():
        raise SystemExit("Run `make bench` first: it installs the servers' environment.")
    setup()
    seed_pets(10_000)
    work = Path(tempfile.mkdtemp(prefix="petstore-cost-"))
    files = {ONE: str(work / "one.txt"), ROTATION: str(work / "crowd.txt")}
    Path(files[ONE]).write_text(issue_key() + "\n")
    Path(files[ROTATION]).write_text("\n".join(crowd.issue_keys(CROWD)) + "\n")
    cases = [case for case in CASES if case[0].startswith(options.case or "")]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        costs = dict(
            zip(
                [label for label, *_ in cases],
                pool.map(lambda case: per_request(case, files), cases),
                strict=True,
            )
        )
    print(f"{'':40} instructions per request ({N} after {WARMUP} of warm-up)")
    for label, cost in costs.items():
        print(f"{label:40} {cost:>12,}")
    if len(cases) < len(CASES):
        return
    whole, off = costs[WHOLE], costs[OPEN]
    print(f"{'list: keys + limits (whole less off)':40} {whole - off:>12,}")
    print(f"{'list: of which the bare round trip':40} {costs[BARE_ROUND_TRIP] - off:>12,}")
    print(f"{'list: the request log (whole less off)':40} {whole - costs[LOG_OFF]:>12,}")
    print(f"{'list: a 304 as a share of the 200':40} {costs[NOT_MODIFIED] / whole:>12.0%}")
    print(f"{'list: a key in rotation less the one key':40} {costs[IN_ROTATION] - whole:>12,}")
    print(f"{'list: a key by its record less the one':40} {costs[EACH_BY_RECORD] - whole:>12,}")
    print(f"{'openapi: the document over a refusal':40} {costs[OPENAPI] / costs[REFUSED]:>12.2f}")
    print(f"{'openapi: its 304 over a refusal':40} {costs[OPENAPI_304] / costs[REFUSED]:>12.2f}")


if __name__ == "__main__":
    main()
