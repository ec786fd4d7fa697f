"""What an operator scrapes (Prometheus): ``GET /metrics``, which only the operator may read,
and the count of every request by route (``petstore.metrics`` defines the metrics).

Under gunicorn and the Celery workers every process writes its counts to files in
``PROMETHEUS_MULTIPROC_DIR`` (prometheus-client's multiprocess mode), set and emptied by
``deploy.serve`` or ``deploy/gunicorn.conf.py``, the dead processes' counts kept in one file of
totals (``petstore.metrics_directory``); a scrape of any web process reads them all, the
workers' included when they share it. Without the directory a single process (``make run``)
counts alone, exactly; a server of several processes without it would show one process's
share, so the scrape is refused with a 503 that says why.
"""

from __future__ import annotations

import contextlib
import hmac
import ipaddress
import os
import time
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve
from django.utils.module_loading import import_string
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    generate_latest,
    multiprocess,
    values,
)

from petstore.addresses import client_address
from petstore.errors import ErrorCode, error_response
from petstore.metrics import REQUEST_SECONDS, REQUESTS, labelled
from petstore.metrics_directory import held_still


class RequestMetricsMiddleware:
    """Counts and times every answer, refusals made by middleware included, by route name."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        route = route_name(request)
        method = request.method if request.method in _METHODS else "other"
        labelled(REQUESTS, route, method, str(response.status_code)).inc()
        labelled(REQUEST_SECONDS, route, method).observe(time.perf_counter() - started)
        return response


_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def route_name(request: HttpRequest) -> str:
    """The URL pattern's name (``pet-list``); ``admin`` for any admin page; ``unmatched``."""
    match = request.resolver_match
    if match is None:  # answered before the view was found (a 429, a static file)
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return "unmatched"
    if match.namespace == "admin":
        return "admin"
    return match.view_name or "unnamed"


def metrics(request: HttpRequest) -> HttpResponse:
    """The metrics in Prometheus's text format, for the operator's addresses or token only;
    anyone else is told there is nothing here."""
    if not _may_scrape(request):
        return error_response(404, ErrorCode.NOT_FOUND, "Not found.")
    why_not = _why_counts_are_not_exact(request)
    if why_not:
        return error_response(503, ErrorCode.SERVICE_UNAVAILABLE, why_not)
    registry = CollectorRegistry()
    directory = _directory()
    if directory:
        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(REGISTRY)
    for collector in settings.PETSTORE_METRICS_COLLECTORS:
        registry.register(import_string(collector)())
    # Read while no dead worker's counts move to the totals, so each is counted once.
    with held_still(Path(directory)) if directory else contextlib.nullcontext():
        body = generate_latest(registry)
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)


def _may_scrape(request: HttpRequest) -> bool:
    token = settings.PETSTORE_METRICS_TOKEN
    sent = request.META.get("HTTP_AUTHORIZATION", "")
    if token and hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
        return True
    try:
        address = ipaddress.ip_address(client_address(request))
    except ValueError:
        return False
    return any(address in network for network in settings.PETSTORE_METRICS_ALLOW)


def _directory() -> str:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")


def _why_counts_are_not_exact(request: HttpRequest) -> str:
    """Why this process cannot report every process's counts, or "" when it can."""
    # prometheus-client chose, on its first import here, between files and this process's memory.
    in_files = values.ValueClass is not values.MutexValue
    if _directory() and not in_files:
        return (
            "Metrics unavailable: PROMETHEUS_MULTIPROC_DIR was set after this process loaded "
            "its metrics, so its counts are in its memory and not in the directory the scrape "
            "reads. Set it before the server starts (deploy/gunicorn.conf.py does)."
        )
    # The WSGI server says whether other processes serve the same application (PEP 3333).
    if not _directory() and request.META.get("wsgi.multiprocess"):
        return (
            "Metrics unavailable: this server runs several processes and each counts only its "
            "own requests without PROMETHEUS_MULTIPROC_DIR. Start gunicorn with "
            "deploy/gunicorn.conf.py, or set PROMETHEUS_MULTIPROC_DIR to an empty directory."
        )
    return ""
