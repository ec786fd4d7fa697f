"""Real gunicorn instances on loopback, sharing the test database and Redis."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from tests.network import free_port
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: object


@dataclass
class Instance:
    url: str
    process: subprocess.Popen[bytes]

    def call(
        self,
        method: str,
        path: str,
        key: str | None = None,
        body: object = None,
        headers: dict[str, str] | None = None,
        timeout: float = 10,
    ) -> Reply:
        sent = dict(headers or {})
        data = None
        if key:
            sent["Authorization"] = f"Bearer {key}"
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        request = urllib.request.Request(f"{self.url}{path}", data, sent, method=method)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                raw, status, got = response.read(), response.status, response.headers
        except urllib.error.HTTPError as error:
            raw, status, got = error.read(), error.code, error.headers
        return Reply(status, dict(got), json.loads(raw) if raw else None)


def server_env() -> dict[str, str]:
    database = connection.settings_dict
    return {
        **os.environ,
        "DATABASE_URL": (
            f"postgres://{database['USER']}@{database['HOST'] or '127.0.0.1'}:"
            f"{database['PORT'] or 5432}/{database['NAME']}"
        ),
        "REDIS_URL": settings.REDIS_URL,
        "SECRET_KEY": settings.SECRET_KEY,
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "REQUEST_LOG": "0",
        # Plain HTTP on loopback: the admin's cookies must be sendable over it.
        "SECURE_COOKIES": "0",
    }


def start_instance(
    workers: int = 2, settings_module: str | None = None, database_url: str | None = None
) -> Instance:
    """gunicorn on a free port of loopback, against this test's database and Redis; with
    ``settings_module``, under those settings rather than the test's own; with
    ``database_url``, against that database rather than the test's."""
    port = free_port()
    env = server_env()
    if settings_module is not None:
        env["DJANGO_SETTINGS_MODULE"] = settings_module
    if database_url is not None:
        env["DATABASE_URL"] = database_url
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "petstore.wsgi:application",
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
            "--graceful-timeout",
            "5",
            # gunicorn's limits as deployed (deploy/gunicorn.conf.py): lifted, since nginx bounds
            # the request line and headers, answering with the Error body.
            "--limit-request-line",
            "0",
            "--limit-request-field_size",
            "0",
        ],
        cwd=ROOT,
        env=env,
    )
    instance = Instance(f"http://127.0.0.1:{port}", process)
    try:
        wait_until(
            lambda: process.poll() is not None or _answers(instance),
            "gunicorn to answer /healthz",
            every=0.2,
        )
    except AssertionError:
        process.kill()
        raise
    if process.poll() is not None:
        raise RuntimeError(f"gunicorn exited with status {process.returncode} while starting")
    return instance


def _answers(instance: Instance) -> bool:
    # Once gunicorn listens, a probe waits in its queue for a worker to boot: given up on
    # early, it would be sent again and again while the workers start.
    try:
        return instance.call("GET", "/healthz", timeout=30).status == 200
    except OSError:
        return False


@pytest.fixture(scope="module")
def two_instances(django_db_setup: None, django_db_blocker) -> Iterator[tuple[Instance, Instance]]:
    with django_db_blocker.unblock():
        first, second = start_instance(), start_instance()
    yield first, second
    for instance in (first, second):
        instance.process.terminate()
        instance.process.wait(timeout=15)


def wait_for_a_fresh_minute(seconds_needed: int = 20) -> None:
    """Limits count per clock minute: start where the whole test fits in one."""
    if time.time() % 60 > 60 - seconds_needed:
        time.sleep(60 - time.time() % 60 + 0.1)
