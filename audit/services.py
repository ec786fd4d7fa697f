"""Writing the trail, and forgetting it after ``PETSTORE_AUDIT_KEPT_DAYS``.

Entries are explicit records written by the services that make each change, in the change's
own transaction, rather than a model-history package: admin bulk actions and the services'
``QuerySet.update()`` calls send no model signals, and the services are the one path every
admin action, command and API call takes, so recording there misses none of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from audit.models import Entry

# Field names whose values are credentials: a change naming one is a bug, refused loudly.
SECRET_FIELDS = frozenset(
    {"digest", "hash", "key_hash", "raw", "raw_key", "secret", "password", "token", "otp"}
)


@dataclass(frozen=True)
class Actor:
    """Who acts, as the trail names them (a username, ``key:<prefix>``, ``command:<name>``),
    and the client address they act from (empty for a command)."""

    name: str
    address: str = ""


# Whatever the code does on its own: the rate limiter's bans, a failing endpoint disabled.
SYSTEM = Actor("system")


def record(
    *,
    actor: str,
    action: str,
    target: models.Model | None = None,
    address: str = "",
    changes: dict[str, Any] | None = None,
    target_type: str = "",
    target_repr: str = "",
) -> Entry:
    """Add an entry; ``changes`` is ``{field: [before, after]}`` of safe fields only."""
    refused = SECRET_FIELDS.intersection(changes or {})
    if refused:
        raise ValueError(f"The trail keeps no secrets: {', '.join(sorted(refused))}.")
    target_id = ""
    if target is not None:
        target_type = target_type or f"{target._meta.app_label}.{target._meta.model_name}"
        target_id = "" if target.pk is None else str(target.pk)
        target_repr = target_repr or str(target)
    return Entry.objects.create(
        at=timezone.now(),
        actor=actor[:160],
        address=address[:64],
        action=action,
        target_type=target_type,
        target_id=target_id,
        target_repr=target_repr[:200],
        changes=changes or {},
    )


def record_by(
    by: Actor | None,
    action: str,
    target: models.Model,
    changes: dict[str, Any] | None = None,
    *,
    target_repr: str = "",
) -> Entry:
    """``record`` for a service told who acts (``by``), or, when not told, ``SYSTEM``."""
    actor = by or SYSTEM
    return record(
        actor=actor.name,
        address=actor.address,
        action=action,
        target=target,
        changes=changes,
        target_repr=target_repr,
    )


def changes_between(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    """``{field: [before, after]}`` of the fields of ``after`` whose value differs."""
    return {
        field: [before.get(field), value]
        for field, value in after.items()
        if before.get(field) != value
    }


def entries_purge(*, now: datetime | None = None) -> int:
    """Delete the entries older than ``PETSTORE_AUDIT_KEPT_DAYS``; how many went."""
    oldest_kept = (now or timezone.now()) - timedelta(days=settings.PETSTORE_AUDIT_KEPT_DAYS)
    deleted, _ = Entry.objects.filter(at__lt=oldest_kept).delete()
    return deleted
