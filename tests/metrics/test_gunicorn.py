"""gunicorn started on its own, as a container or a systemd unit starts it: with the project's
configuration and nothing else set, a scrape counts every worker's requests exactly; without
it, several workers and no multiprocess directory, the scrape is refused rather than partial."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from petstore.metrics_directory import VARIABLE, own_directory
from tests.metrics.test_stack import scrape_url, total
from tests.network import free_port
from tests.reliability.conftest import server_env

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "operator-token-for-tests"
GOOD, UNKNOWN = 300, 50
# Bounds for a loaded machine: a worker's start (Django, its first connections) can take long.
STARTUP_SECONDS = 120


@dataclass
class Gunicorn:
    url: str
    process: subprocess.Popen[bytes]


def start_gunicorn(*options: str) -> Gunicorn:
    """``gunicorn petstore.wsgi`` with ``options``, on loopback, once its workers answer
    /readyz; the test database and Redis, and no multiprocess directory in its environment."""
    env = {
        **server_env(),
        # Not loopback: only the token opens /metrics here.
        "PETSTORE_METRICS_ALLOW": "192.0.2.0/24",
        "PETSTORE_METRICS_TOKEN": TOKEN,
        # The unknown keys are refused for what they are, not for the address's anonymous limit.
        "PETSTORE_ANONYMOUS_RATE": "100000/m",
    }
    env.pop(VARIABLE, None)
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "petstore.wsgi", *options]
    command += ["--bind", f"127.0.0.1:{port}"]
    server = Gunicorn(
        f"http://127.0.0.1:{port}", subprocess.Popen(command, cwd=ROOT, env=env, process_group=0)
    )
    deadline = time.monotonic() + STARTUP_SECONDS
    while not _ready(server.url):
        if server.process.poll() is not None:
            raise AssertionError(f"gunicorn exited with {server.process.returncode} on start")
        if time.monotonic() > deadline:
            stop(server)
            raise AssertionError(f"gunicorn was not ready within {STARTUP_SECONDS} s")
        time.sleep(0.2)
    return server


def _ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/readyz", timeout=5) as response:
            return bool(response.status == 200)
    except (OSError, urllib.error.URLError):
        return False


def stop(server: Gunicorn) -> None:
    server.process.terminate()
    try:
        server.process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()


@pytest.fixture
def configured() -> Iterator[Gunicorn]:
    server = start_gunicorn("-c", "deploy/gunicorn.conf.py", "--workers", "3")
    yield server
    stop(server)


def status_of(url: str, key: str) -> int:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {key}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def send_all(url: str, keys: Sequence[str]) -> Counter[int]:
    """One request per key, several at a time so that every worker takes some; the statuses."""
    with ThreadPoolExecutor(max_workers=8) as pool:
        return Counter(pool.map(lambda key: status_of(url, key), keys))


def test_bare_gunicorn_with_the_project_s_configuration_counts_every_worker(configured, make_key):
    key = make_key(plan="enterprise")
    unknown = "sk_live_" + "0" * 40
    # The config set up a directory of the run's own, named after gunicorn's master.
    directory = own_directory(configured.process.pid)
    assert directory.is_dir()

    statuses = send_all(configured.url + "/v1/pets", [key] * GOOD + [unknown] * UNKNOWN)
    samples = scrape_url(configured.url, TOKEN)
    writers = {path.stem.rpartition("_")[2] for path in directory.glob("counter_*.db")}
    stop(configured)

    assert statuses == {200: GOOD, 401: UNKNOWN}
    name = "petstore_http_requests_total"
    assert total(samples, name, route="pet-list", method="GET", status="200") == GOOD
    assert total(samples, name, route="pet-list", method="GET", status="401") == UNKNOWN
    timed = total(
        samples, "petstore_http_request_duration_seconds_count", route="pet-list", method="GET"
    )
    assert timed == GOOD + UNKNOWN
    assert len(writers) >= 3, writers  # each worker counts in a file of its own
    assert not directory.exists(), "the run's directory outlived gunicorn"


def test_several_workers_without_a_directory_refuse_the_scrape_with_the_error_body():
    server = start_gunicorn("--workers", "2")
    try:
        with pytest.raises(urllib.error.HTTPError) as refused:
            scrape_url(server.url, TOKEN)
    finally:
        stop(server)

    assert refused.value.code == 503
    assert refused.value.headers["Content-Type"] == "application/json"
    body = json.loads(refused.value.read())
    assert set(body) == {"code", "message", "status"}
    assert body["code"] == "service_unavailable"
    assert body["status"] == 503
    assert "PROMETHEUS_MULTIPROC_DIR" in body["message"]
