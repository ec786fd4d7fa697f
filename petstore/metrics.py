"""The service's metrics (Prometheus), counted where things happen: names ``petstore_*``, labels
of a bounded set of values (route names, methods, statuses, plans, event types; never a path, a
key or an account). ``petstore.prometheus`` serves them."""

from __future__ import annotations

from functools import cache
from typing import TypeVar

from prometheus_client import Counter, Histogram
from prometheus_client.metrics import MetricWrapperBase

M = TypeVar("M", bound=MetricWrapperBase)

REQUESTS = Counter(
    "petstore_http_requests",
    "Requests answered, by route name, method and status.",
    ["route", "method", "status"],
)
REQUEST_SECONDS = Histogram(
    "petstore_http_request_duration_seconds",
    "Time from a request's arrival in Django to its answer, by route name and method.",
    ["route", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
ADMISSIONS = Counter(
    "petstore_admissions",
    "API requests by what admission decided (admitted, refused over a limit, banned, "
    "unauthorized, foreign_origin), by plan.",
    ["outcome", "plan"],
)
REDIS_FAILURES = Counter(
    "petstore_redis_failures", "Calls to Redis that failed: unreachable, timed out or refused."
)
LIMITER_FALLBACKS = Counter(
    "petstore_limiter_fallbacks",
    "Requests counted in the process's own memory because Redis could not be used.",
)
DATABASE_FAILURES = Counter(
    "petstore_database_failures", "Requests answered 503 because PostgreSQL failed."
)
EVENTS = Counter("petstore_events", "Events placed in the feed, by type.", ["type"])
WEBHOOK_ATTEMPTS = Counter(
    "petstore_webhook_attempts",
    "Delivery attempts by result: delivered, rejected (another status), failing (5xx, 429), "
    "no_answer (timeout, refused connection), refused_address (not a public address).",
    ["result"],
)
WEBHOOK_LATENCY = Histogram(
    "petstore_webhook_delivery_latency_seconds",
    "From an event's creation to its delivery, retries included.",
    buckets=(0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 1800, 3600, 21600, 86400),
)
TASKS = Counter(
    "petstore_celery_tasks", "Celery tasks run, by task and final state.", ["task", "state"]
)


@cache
def labelled(metric: M, *values: str) -> M:
    """``metric.labels(*values)``, looked up once for each set of values: on the request path,
    where prometheus-client's own lookup (a lock, the values checked) cost a quarter of the
    metrics' price. The label sets are few by design."""
    return metric.labels(*values)
