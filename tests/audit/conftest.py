"""The trail's fixtures: staff clients that come from known addresses, and reading entries."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.test import Client

from audit.models import Entry

MANAGER_ADDRESS = "203.0.113.7"
ADMIN_ADDRESS = "198.51.100.20"
PARTNER_ADDRESS = "192.0.2.55"


@pytest.fixture
def manager_desk(manager_client: Client) -> Client:
    """The admin as an account manager sees it (second factor and all), from
    ``MANAGER_ADDRESS``."""
    manager_client.defaults["REMOTE_ADDR"] = MANAGER_ADDRESS
    return manager_client


@pytest.fixture
def admin_desk(admin_client: Client) -> Client:
    """The admin as a superuser (``admin``) sees it, from ``ADMIN_ADDRESS``."""
    admin_client.defaults["REMOTE_ADDR"] = ADMIN_ADDRESS
    return admin_client


def only(action: str, target: Any = None) -> Entry:
    """The one entry of ``action`` (about ``target``, when given)."""
    entries = Entry.objects.filter(action=action)
    if target is not None:
        entries = entries.filter(target_id=str(target.pk))
    return entries.get()


def every(action: str) -> list[Entry]:
    """The entries of ``action``, oldest first."""
    return list(Entry.objects.filter(action=action).order_by("id"))


def iso(moment: Any) -> str:
    """A moment as the trail's changes hold it (DjangoJSONEncoder's ISO 8601)."""
    return str(DjangoJSONEncoder().default(moment))


def run_action(desk: Client, url: str, action: str, objects: Any, **extra: Any) -> Any:
    return desk.post(
        url,
        {"action": action, "_selected_action": [o.pk for o in objects], "index": 0, **extra},
    )
