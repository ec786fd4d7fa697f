"""Cached key lookups never outlive a change, whichever process made it."""

from __future__ import annotations

import os
import subprocess
import sys
from http import HTTPStatus
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from apikeys.models import ApiKey

ROOT = Path(__file__).resolve().parents[2]


def manage(*args: str) -> str:
    """Run a management command in another process, against the test database and Redis."""
    database = connection.settings_dict
    url = (
        f"postgres://{database['USER']}@{database['HOST'] or '127.0.0.1'}:"
        f"{database['PORT'] or 5432}/{database['NAME']}"
    )
    env = {**os.environ, "DATABASE_URL": url, "REDIS_URL": settings.REDIS_URL}
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


# The other process must see this test's rows: they have to be committed.
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def test_a_key_revoked_by_another_process_is_refused_on_the_next_request(client, api_key):
    headers = {"Authorization": f"Bearer {api_key}"}
    assert client.get("/v1/categories", headers=headers).status_code == HTTPStatus.OK

    manage("revokeapikey", ApiKey.objects.get().prefix)

    assert client.get("/v1/categories", headers=headers).status_code == HTTPStatus.UNAUTHORIZED


def test_a_plan_change_made_by_another_process_applies_to_the_next_request(client, make_account):
    account = make_account(name="Growing shelter")
    first_key = manage("createapikey", "--plan", "free", "--account", str(account.pk))
    headers = {"Authorization": f"Bearer {first_key.strip().splitlines()[-1]}"}
    assert client.get("/v1/categories", headers=headers)["X-RateLimit-Limit"] == "60"

    manage("createapikey", "--plan", "pro", "--account", str(account.pk))

    assert client.get("/v1/categories", headers=headers)["X-RateLimit-Limit"] == "300"
