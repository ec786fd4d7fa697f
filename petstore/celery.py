"""The task queue's app: ``celery -A petstore worker --beat`` runs the webhooks' tasks, its
settings being Django's ``CELERY_*``.

A worker counts its tasks (``petstore.metrics``) in the multiprocess directory it is given
(``deploy.serve`` shares gunicorn's, so the web's /metrics carries them), else in one of its
own, made at its start (``petstore.metrics_directory``). Started apart, as the README starts
it, it serves that directory's counts on ``127.0.0.1:$PETSTORE_WORKER_METRICS_PORT`` for
Prometheus."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterable
from functools import cached_property
from pathlib import Path
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from celery import Celery, Task
from celery.apps.worker import Worker
from celery.signals import (
    task_postrun,
    worker_process_init,
    worker_ready,
    worker_shutdown,
)

from petstore.metrics_directory import (
    VARIABLE,
    forget_dead_processes,
    held_still,
    remove_own_directory,
    set_up_unless_given,
)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "petstore.settings")


class CountingWorker(Worker):
    """The worker's program, every process of which counts to files in one directory, which the
    worker reads whole when scraped. Set up first of all: Celery starts Django on the worker's
    construction, before its first signal, and Django imports the metrics, and prometheus-client
    decides on its first import, once per process, where counts go."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        set_up_unless_given()
        super().__init__(*args, **kwargs)


class PetstoreCelery(Celery):
    """Celery, its worker program ours."""

    @cached_property
    def Worker(self) -> type[Worker]:
        return self.subclass_with_self(CountingWorker)


app = PetstoreCelery("petstore")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.conf.beat_schedule = {
    "dispatch": {"task": "webhooks.tasks.dispatch", "schedule": 0.25},
    "purge": {"task": "webhooks.tasks.purge", "schedule": 3600.0},
}


@task_postrun.connect
def count_task(task: Task, state: str | None = None, **_: object) -> None:
    """Every task run, by its final state (SUCCESS, FAILURE, RETRY…), for the operator."""
    # Imported here, not with this module: prometheus-client decides on its first import
    # whether counts go to files, and `celery worker` loads this module before it builds the
    # worker, which sets the directory.
    from petstore.metrics import TASKS

    TASKS.labels(task.name, (state or "unknown").lower()).inc()


@worker_process_init.connect
def forget_the_replaced(**_: object) -> None:
    """A pool process starts, maybe in place of one that died: the dead one's counts join
    the totals, so that a scrape reads one file per live process."""
    forget_dead_processes()


@worker_ready.connect
def say_ready(**_: object) -> None:
    """The worker consumes: under ``deploy.serve`` it makes its mark, a file named by its pid in
    the run directory's ``ready``, so that a release stops the old worker only after this one
    (``deploy.workers``; the same mark as gunicorn's workers', ``deploy.rolling``)."""
    run_dir = os.environ.get("PETSTORE_RUN_DIR")
    if run_dir:
        ready = Path(run_dir) / "ready"
        ready.mkdir(exist_ok=True)
        (ready / str(os.getpid())).touch()


# The worker's metrics server, while it runs.
_serving: list[WSGIServer] = []


@worker_ready.connect
def serve_metrics(**_: object) -> None:
    """Serve the worker's counts on loopback when the operator asks for it; only loopback, as
    /metrics answers only the operator."""
    from django.conf import settings

    port = settings.PETSTORE_WORKER_METRICS_PORT
    if not port:
        return
    server = make_server("127.0.0.1", port, _scrape, _Server, _Quiet)
    threading.Thread(target=server.serve_forever, name="metrics", daemon=True).start()
    _serving.append(server)


@worker_shutdown.connect
def stop_serving_metrics(**_: object) -> None:
    """The worker stops: its server goes, and the directory it made for itself, if it did."""
    while _serving:
        server = _serving.pop()
        server.shutdown()
        server.server_close()
    remove_own_directory()


class _Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True  # a scrape in flight never holds up the worker's exit


class _Quiet(WSGIRequestHandler):
    def log_message(self, *args: Any) -> None:
        """Prometheus scrapes every few seconds: a line each would drown the worker's log."""


Respond = Callable[[str, list[tuple[str, str]]], Any]


def _scrape(environ: dict[str, Any], start_response: Respond) -> Iterable[bytes]:
    """Every process's counts from the directory, read while none moves to the totals; or a
    503 with the Error body saying why they cannot be exact."""
    from prometheus_client import CollectorRegistry, make_wsgi_app, multiprocess, values

    from petstore.errors import ErrorCode, error_body

    directory = os.environ.get(VARIABLE, "")
    if not directory or values.ValueClass is values.MutexValue:
        why = (
            "Metrics unavailable: this worker loaded its metrics before it set "
            f"{VARIABLE}, so its processes count in their own memory, which no scrape reads."
        )
        start_response("503 Service Unavailable", [("Content-Type", "application/json")])
        return [json.dumps(error_body(503, ErrorCode.SERVICE_UNAVAILABLE, why)).encode()]
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    with held_still(Path(directory)):
        return list(make_wsgi_app(registry)(environ, start_response))
