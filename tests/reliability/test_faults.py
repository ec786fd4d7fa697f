"""Parts fail under load; clients still get answers, and the service recovers by itself."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus
from http.client import HTTPException
from pathlib import Path

import psycopg
import pytest

from apikeys.windows import WINDOWS
from tests.conftest import ROOMY_LIMIT
from tests.network import free_port, redis_server
from tests.postgres import Postgres, postgres_server
from tests.reliability.conftest import ROOT, Instance, server_env, start_instance

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def load(instance: Instance, key: str, seconds: float, clients: int = 8) -> list[int]:
    """Bounded load: ``clients`` loops of GET /v1/pets for ``seconds``; every status seen."""
    deadline = time.monotonic() + seconds

    def loop(_: int) -> list[int]:
        statuses = []
        while time.monotonic() < deadline:
            try:
                statuses.append(instance.call("GET", "/v1/pets?limit=5", key, timeout=5).status)
            except (OSError, HTTPException):
                # No answer, or one cut short: a worker killed between its headers and its body.
                statuses.append(0)
        return statuses

    with ThreadPoolExecutor(max_workers=clients) as pool:
        return [status for statuses in pool.map(loop, range(clients)) for status in statuses]


@pytest.fixture
def busy_key(make_key) -> str:
    return make_key(plan="enterprise")


def test_a_killed_worker_is_replaced_and_other_requests_do_not_fail(two_instances, busy_key):
    instance = two_instances[0]
    workers = Path(f"/proc/{instance.process.pid}/task/{instance.process.pid}/children")
    victim = int(workers.read_text().split()[0])

    with ThreadPoolExecutor(max_workers=1) as pool:
        during = pool.submit(load, instance, busy_key, 4.0)
        time.sleep(1.0)
        os.kill(victim, signal.SIGKILL)
        statuses = during.result()

    failed = [s for s in statuses if s != HTTPStatus.OK]
    print(f"\nworker SIGKILLed under load: {len(statuses)} requests, {len(failed)} failed")
    # Only what the victim itself was serving can be lost: at most one request per client.
    assert len(failed) <= 8
    assert all(s != HTTPStatus.INTERNAL_SERVER_ERROR for s in statuses)
    time.sleep(1.0)
    assert victim not in map(int, workers.read_text().split())
    assert len(workers.read_text().split()) == 2  # gunicorn replaced it
    assert instance.call("GET", "/v1/pets", busy_key).status == HTTPStatus.OK


def test_redis_stopped_under_load_means_no_5xx_and_recovery(busy_key, settings):
    port = free_port()
    redis_process = redis_server(port)
    settings.REDIS_URL = f"redis://127.0.0.1:{port}/0"  # for this test's own instance only
    instance = start_instance()
    try:
        with ThreadPoolExecutor(max_workers=1) as pool:
            during = pool.submit(load, instance, busy_key, 6.0)
            time.sleep(2.0)
            redis_process.terminate()
            redis_process.wait(timeout=10)
            statuses = during.result()
        down = instance.call("GET", "/readyz")
        redis_process = redis_server(port)
        time.sleep(2.5)  # past the limiter's retry interval
        after = [instance.call("GET", "/v1/pets", busy_key) for _ in range(4)]
        ready = instance.call("GET", "/readyz")
    finally:
        instance.process.terminate()
        instance.process.wait(timeout=15)
        redis_process.terminate()

    print(f"\nRedis stopped under load: {len(statuses)} requests, statuses {set(statuses)}")
    assert statuses
    assert all(s == HTTPStatus.OK for s in statuses)
    assert down.status == HTTPStatus.SERVICE_UNAVAILABLE
    assert isinstance(down.body, dict)
    assert down.body["checks"]["cache"] == "down"
    assert all(reply.status == HTTPStatus.OK for reply in after)
    assert ready.status == HTTPStatus.OK


@pytest.fixture
def own_postgres() -> Iterator[Postgres]:
    """A PostgreSQL server of this test's own, its database migrated: the machine's server is
    shared with whatever else runs here, and is not a test's to stop."""
    with postgres_server() as server:
        with psycopg.connect(server.url(), autocommit=True) as connection:
            connection.execute("CREATE DATABASE petstore")
        manage(server.url("petstore"), "migrate", "--no-input")
        yield server


def manage(database_url: str, *arguments: str) -> str:
    """What ``manage.py`` prints, run as an operator would against ``database_url``."""
    done = subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=ROOT,
        env={**server_env(), "DATABASE_URL": database_url},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, f"manage.py {' '.join(arguments)}:\n{done.stdout}{done.stderr}"
    return done.stdout


def test_postgres_restarted_under_load_means_503s_then_recovery(own_postgres):
    database_url = own_postgres.url("petstore")
    roomy = [f"--per-{window.name}={ROOMY_LIMIT}" for window in WINDOWS]
    # The key is printed last, alone on its line.
    key = manage(database_url, "createapikey", "--plan", "enterprise", *roomy).splitlines()[-1]
    instance = start_instance(database_url=database_url)
    try:
        assert instance.call("GET", "/v1/pets", key).status == HTTPStatus.OK  # key cached
        started = time.monotonic()
        with ThreadPoolExecutor(max_workers=1) as pool:
            during = pool.submit(load, instance, key, 8.0)
            time.sleep(1.5)
            own_postgres.stop()
            time.sleep(2.0)
            outage = instance.call("GET", "/v1/pets", key)
            own_postgres.start()
            statuses = during.result()
        after = [instance.call("GET", "/v1/pets", key).status for _ in range(6)]
    finally:
        instance.process.terminate()
        instance.process.wait(timeout=15)

    print(
        f"\nPostgreSQL stopped for ~2 s under load: {len(statuses)} requests, "
        f"{statuses.count(503)} x 503, {statuses.count(200)} x 200, "
        f"others {sorted({s for s in statuses if s not in (200, 503)})}"
    )
    assert outage.status == HTTPStatus.SERVICE_UNAVAILABLE
    assert isinstance(outage.body, dict)
    assert outage.body["code"] == "service_unavailable"
    assert set(statuses) == {HTTPStatus.OK, HTTPStatus.SERVICE_UNAVAILABLE}
    assert time.monotonic() - started < 30  # nothing hung
    assert after == [HTTPStatus.OK] * 6  # recovered, no restart of the service
