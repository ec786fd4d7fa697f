"""No switch opens the API: the benchmark's open stack is its own settings module, served from
its own database, and the service's settings refuse the old variable at start-up."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

from django.conf import settings

from tests.reliability.conftest import ROOT

OPEN_STACK = "bench.open_settings"
# What the process says of its API's layers and permissions once its settings are loaded.
SHOW_LAYERS = (
    "import django; django.setup(); from django.conf import settings; "
    "print(settings.API_MIDDLEWARE, settings.REST_FRAMEWORK['DEFAULT_PERMISSION_CLASSES'])"
)


def production(**extra: str) -> dict[str, str]:
    """The environment a deployment runs with: DEBUG off, a real secret, a real database."""
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "SECURE_SSL_REDIRECT": "1",
        "ALLOWED_HOSTS": "petstore.example.com",
        "DATABASE_URL": os.environ.get("DATABASE_URL", ""),
        "REDIS_URL": settings.REDIS_URL,
        "DJANGO_SETTINGS_MODULE": "petstore.settings",
    }
    return {**env, **extra}


def run(env: dict[str, str], *command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def test_production_settings_refuse_to_start_with_the_benchmarks_switch():
    checked = run(production(PETSTORE_OPEN_FOR_BENCHMARK="1"), "manage.py", "check", "--deploy")
    served = run(production(PETSTORE_OPEN_FOR_BENCHMARK="1"), "-c", "import petstore.wsgi")

    for refused in (checked, served):
        assert refused.returncode != 0
        assert "ImproperlyConfigured: PETSTORE_OPEN_FOR_BENCHMARK is refused" in refused.stderr
    # The same command starts without it: the switch alone is what is refused.
    assert run(production(), "manage.py", "check", "--deploy").returncode == 0


def test_the_open_stack_refuses_any_database_but_the_benchmarks():
    env = production(DJANGO_SETTINGS_MODULE=OPEN_STACK)

    refused = run(env, "-c", SHOW_LAYERS)

    assert refused.returncode != 0
    assert "bench.open_settings serve only the benchmark's database" in refused.stderr


def test_the_open_stack_opens_the_api_on_the_benchmarks_database():
    bench_database = "postgres://postgres@127.0.0.1:5432/petstore_bench"
    env = production(DJANGO_SETTINGS_MODULE=OPEN_STACK, DATABASE_URL=bench_database)

    opened = run(env, "-c", SHOW_LAYERS)
    closed = run(production(DATABASE_URL=bench_database), "-c", SHOW_LAYERS)

    assert opened.returncode == 0, opened.stderr
    assert opened.stdout.split() == [
        "['petstore.api_http.ApiHttpMiddleware']",
        "['rest_framework.permissions.AllowAny']",
    ]
    assert "AdmissionMiddleware" in closed.stdout
