"""A web process loads no part of the workers' stack: the task queue, its Redis client and the
webhooks' HTTP client live in the Celery workers only (a web worker's memory is measured)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.reliability.conftest import ROOT

# (urllib3 is not listed: DRF imports requests, and with it urllib3, wherever it is installed.)
WORKERS_ONLY = ("celery", "kombu", "redis", "standardwebhooks", "webhooks.delivery")
LOAD_EVERY_URL = """
import sys
from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver
get_wsgi_application()
resolver = get_resolver()
for path in ("/v1/pets", "/v1/events", "/v1/webhook_endpoints", "/v1/webhook_endpoints/1",
             "/v1/store/orders", "/admin/"):
    resolver.resolve(path)
from django.contrib import admin
admin.autodiscover()
print(" ".join(sorted(sys.modules)))
"""


def test_a_web_process_never_imports_the_workers_stack():
    env = {**os.environ, "DATABASE_URL": "sqlite://:memory:", "DEBUG": "1"}
    env.pop("REDIS_URL", None)
    loaded = subprocess.run(
        [sys.executable, "-c", LOAD_EVERY_URL],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "petstore.settings"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()

    assert [name for name in WORKERS_ONLY if name in loaded] == []
