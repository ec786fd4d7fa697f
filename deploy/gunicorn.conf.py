"""gunicorn behind nginx (deploy/nginx.conf), as `make serve` and production run it, or on its
own: `gunicorn petstore.wsgi -c deploy/gunicorn.conf.py`.

nginx buffers whole requests and whole responses, so a worker is busy only while Django works:
the CPU of one request plus its PostgreSQL and Redis round trips. The values below follow.
The listening address comes from the command line (deploy/serve.py: a unix socket only nginx
reaches); every other value is here, each with its reason.
"""

from __future__ import annotations

import multiprocessing
import os

from deploy.rolling import forget_worker, load_afresh, mark_ready, spread_recycling
from petstore.metrics_directory import (
    forget_dead_processes,
    remove_own_directory,
    set_up_unless_given,
)

# Every worker writes its counts to files in one directory that each scrape reads whole
# (petstore.metrics_directory): the one given (deploy.serve's, shared with the Celery worker),
# else one of this run's own, made empty. Done here, in the master before it forks a worker, since
# prometheus-client reads the variable once, on its first import in each process. A reload
# reads this file again and finds the directory set.
set_up_unless_given()

# Sync workers, one request at a time each. A request is mostly CPU, so a worker per core plus
# one to cover a worker waiting on the database is enough (docs/performance.md). WEB_CONCURRENCY
# overrides it.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() + 1))
# Our worker answers gunicorn's own refusals with the Error body (deploy/worker.py).
worker_class = "deploy.worker.JsonErrorWorker"

# A request's worst case is bounded by the service itself: 3 s to connect to PostgreSQL, 5 s a
# statement, 0.5 s a Redis call. 20 s is well past that, so a worker silent for 20 s is stuck
# and is killed and replaced (nginx, which waits 30 s, answers a JSON 502 for it).
timeout = 20
# On SIGHUP (reload) or SIGTERM, a worker finishes the request it holds before it exits; the
# longest a request can take is `timeout`, so 30 s lets every one finish.
graceful_timeout = 30
# Workers are replaced after 10,000 requests (+ up to 1,000, so that they do not all restart at
# once: each live worker's point is away from its siblings', deploy.rolling): a worker grows
# slowly (docs/performance.md), and a recycled one starts fresh.
# Replacement is graceful (the request in hand is finished) and the listening socket stays
# open, so behind nginx no request is lost to it.
max_requests = 10_000
max_requests_jitter = 1_000

# No keep-alive: a sync worker closes the connection after each response anyway, and nginx
# connects afresh for each request over a unix socket (microseconds).
keepalive = 0

# nginx already bounds the request line (4 KiB), each header line (4 KiB) and all headers
# (16 KiB), answering as JSON. gunicorn's defaults (4,094 bytes, 8,190, 100 fields) would refuse
# some of what nginx passes, in HTML; lifted, nginx's limits are the only ones.
limit_request_line = 0
limit_request_field_size = 0
limit_request_fields = 32_768

# Only nginx reaches the socket and it sets X-Forwarded-Proto itself (overwriting the client's),
# so gunicorn believes it from any peer, as Django does (SECURE_PROXY_SSL_HEADER).
forwarded_allow_ips = "*"
secure_scheme_headers = {"X-FORWARDED-PROTO": "https"}

# The app is loaded in each worker, not the master, so that a SIGHUP reload loads new code.
preload_app = False

# Errors to stderr; no access log: nginx's (deploy/nginx.conf) and the service's own request log
# already have one line per request each.
errorlog = "-"
loglevel = "warning"
accesslog = None


def pre_fork(server: object, worker: object) -> None:
    """A worker's recycling point, away from the live workers' (deploy.rolling)."""
    spread_recycling(server, worker)


def post_fork(server: object, worker: object) -> None:
    """A new worker loads the release its directory holds now (deploy.rolling)."""
    load_afresh(server, worker)


def post_worker_init(worker: object) -> None:
    """The application is loaded: the worker says it answers (deploy.rolling)."""
    mark_ready(worker)


def child_exit(server: object, worker: object) -> None:
    """A worker has exited (replaced after max_requests, killed): its metrics' counts join the
    totals, so that the directory holds files for live workers only (petstore.metrics_directory)."""
    forget_dead_processes()
    forget_worker(worker)


def on_exit(server: object) -> None:
    """gunicorn stops: the directory made for this run goes with it, unless a master started by
    an upgrade (USR2) carries on with it."""
    if not getattr(server, "reexec_pid", 0):
        remove_own_directory()
