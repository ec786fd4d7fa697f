"""A Celery worker started apart from ``deploy.serve``, as the README starts it (gevent's pool)
or as ``make run`` does (prefork, two processes and the beat), with
``PETSTORE_WORKER_METRICS_PORT`` and no multiprocess directory: a scrape of its port counts
every task it ran exactly, its pool's processes summed, and its own directory goes with it."""

from __future__ import annotations

import subprocess
import urllib.error
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from deploy.workers import start_workers, stop_workers
from petstore.celery import app
from petstore.metrics_directory import VARIABLE, own_directory
from tests.metrics.test_stack import scrape_url, total
from tests.network import free_port
from tests.waiting import wait_until
from tests.webhooks.conftest import worker_env

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

# A cheap task with nothing to do on an empty database; the beat sends it hourly only.
TASK = "webhooks.tasks.purge"
RUNS = 60


@dataclass
class Worker:
    process: subprocess.Popen[bytes]
    url: str

    def ran(self) -> float:
        samples = scrape_url(self.url)
        return total(samples, "petstore_celery_tasks_total", task=TASK, state="success")


@contextmanager
def started(run_dir: Path, **how: object) -> Iterator[Worker]:
    """A worker with its metrics on a free port, once that port answers; stopped after."""
    port = free_port()
    env = worker_env(PETSTORE_WORKER_METRICS_PORT=str(port))
    env.pop(VARIABLE, None)
    app.control.purge()  # tasks an earlier test left queued would be run, and counted, here
    process = start_workers(env, run_dir, **how)  # type: ignore[arg-type]
    worker = Worker(process, f"http://127.0.0.1:{port}")
    try:
        wait_until(lambda: _answers(worker), "the worker's metrics port answered")
        yield worker
    finally:
        stop_workers(process)


def _answers(worker: Worker) -> bool:
    if worker.process.poll() is not None:
        raise AssertionError(f"the worker exited with {worker.process.returncode} on start")
    try:
        scrape_url(worker.url)
    except (OSError, urllib.error.URLError):
        return False
    return True


def run_and_count(worker: Worker) -> float:
    for _ in range(RUNS):
        app.send_task(TASK)
    wait_until(lambda: worker.ran() >= RUNS, f"{RUNS} runs of {TASK} counted")
    return worker.ran()


def test_a_worker_started_as_the_readme_says_serves_every_task_s_count(tmp_path):
    with started(tmp_path, pool="gevent", beat=False) as worker:
        directory = own_directory(worker.process.pid)
        assert directory.is_dir(), "the worker made no directory of its own"
        counted = run_and_count(worker)

    assert counted == RUNS
    assert not directory.exists(), "the worker's directory outlived it"


def test_a_prefork_worker_sums_its_processes_counts(tmp_path):
    # The process that answers the scrape runs no task: every count is read from its pool's.
    with started(tmp_path, pool="prefork", concurrency=2) as worker:
        directory = own_directory(worker.process.pid)
        assert directory.is_dir(), "the worker made no directory of its own"
        counted = run_and_count(worker)

    assert counted == RUNS
    assert not directory.exists(), "the worker's directory outlived it"
