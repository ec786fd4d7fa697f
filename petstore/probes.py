"""Liveness and readiness probes for the load balancer and the orchestrator. No key needed."""

from __future__ import annotations

import os

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from petstore import redis

# require_safe: GET and HEAD (load balancers often probe with HEAD); anything else is a 405,
# which needs csrf_exempt to be reached at all (CSRF would answer an unsafe method with 403).


@csrf_exempt
@require_safe
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """The process is up and answering; says nothing about what it depends on."""
    return JsonResponse({"status": "ok"})


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        return False
    return True


def _redis_ok() -> bool:
    """The shared Redis answers a PING (embedded mode has none to wait for)."""
    client = redis.client()
    if client is None:
        return True
    try:
        client.execute("PING")
    except redis.RedisError:
        return False
    return True


def _host_state() -> str:
    """``draining`` while the host is being taken out (its drain file exists), else ``ok``."""
    drain_file = settings.PETSTORE_DRAIN_FILE
    return "draining" if drain_file and os.path.exists(drain_file) else "ok"


@csrf_exempt
@require_safe
@never_cache
def readyz(request: HttpRequest) -> JsonResponse:
    """Ready to serve: the database and Redis both answer, and the host is not draining."""
    checks = {
        "database": "ok" if _database_ok() else "down",
        "cache": "ok" if _redis_ok() else "down",
        "host": _host_state(),
    }
    ready = all(state == "ok" for state in checks.values())
    return JsonResponse(
        {"status": "ok" if ready else "unavailable", "checks": checks},
        status=200 if ready else 503,
    )
