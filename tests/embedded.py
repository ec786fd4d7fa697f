"""The embedded set-up of `make run` (SQLite, no Redis, DEBUG on), run as subprocesses."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path

from tests.network import free_port
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[1]


def embedded_env(database: Path) -> dict[str, str]:
    """The environment `make run` gives its commands, with its database at ``database``."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY"}
    }
    return {**env, "DATABASE_URL": f"sqlite:///{database}", "DEBUG": "1", "REQUEST_LOG": "0"}


def manage(env: dict[str, str], *args: str) -> str:
    """Run ``manage.py *args``; its standard output."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout


@dataclass
class EmbeddedServer:
    url: str
    key: str

    def call(self, method: str, path: str, body: object = None, **headers: str) -> tuple:
        """``(status, decoded JSON body)`` of one request with the server's key."""
        sent = {"Authorization": f"Bearer {self.key}", **headers}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        request = urllib.request.Request(f"{self.url}{path}", data, sent, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")


@contextlib.contextmanager
def runserver(env: dict[str, str], key: str) -> Iterator[EmbeddedServer]:
    """Django's server exactly as `make run` serves (one process, a thread per request), once
    it answers."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        server = EmbeddedServer(f"http://127.0.0.1:{port}", key)
        wait_until(
            lambda: process.poll() is not None or _answers(server),
            "runserver to answer /healthz",
            every=0.2,
        )
        if process.poll() is not None:
            raise AssertionError(f"runserver exited with status {process.returncode}")
        yield server
    finally:
        process.terminate()
        process.wait(timeout=15)


def _answers(server: EmbeddedServer) -> bool:
    try:
        return server.call("GET", "/healthz")[0] == HTTPStatus.OK
    except OSError:
        return False
