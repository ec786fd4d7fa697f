"""A new window's migration: its limit filled for every plan and Enterprise account that
predates it (an account without one would refuse every request), from the table's other
windows, in the migration that adds its fields:

    operations = [
        migrations.AddField("plan", "requests_per_hour", ...),
        migrations.AddField("account", "custom_requests_per_hour", ...),
        fill_window_limits("hour"),
    ]
"""

from __future__ import annotations

import math
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.db import migrations

from apikeys.windows import WINDOWS, WindowSpec


def fill_window_limits(name: str, *, plans: dict[str, int] | None = None) -> migrations.RunPython:
    """The operation that fills window ``name``'s limit where it is empty: each plan's from
    ``plans`` (by code), else, like each Enterprise account's, the limit that changes nothing,
    the fewest requests the other windows already let through in its length (``neutral``)."""
    found = [w for w in WINDOWS if w.name == name]
    if not found:
        raise ValueError(f"no window {name!r} in apikeys.windows.WINDOWS")
    window = found[0]
    chosen = plans or {}

    def fill(apps: Any, schema_editor: Any) -> None:
        Plan, Account = apps.get_model("apikeys", "Plan"), apps.get_model("apikeys", "Account")
        # The windows of the table this migration's models already have.
        others = [w for w in WINDOWS if w != window and _has(Plan, w.plan_field)]
        for plan in Plan.objects.filter(**{f"{window.plan_field}__isnull": True}):
            limits = {w: getattr(plan, w.plan_field) for w in others}
            setattr(plan, window.plan_field, chosen.get(plan.code) or neutral(window, limits))
            plan.save(update_fields=[window.plan_field])
        accounts = Account.objects.filter(**{f"{window.custom_field}__isnull": True}).exclude(
            **{f"{w.custom_field}__isnull": True for w in others}
        )
        for account in accounts.iterator():
            limits = {w: getattr(account, w.custom_field) for w in others}
            setattr(account, window.custom_field, neutral(window, limits))
            account.save(update_fields=[window.custom_field])

    return migrations.RunPython(fill, migrations.RunPython.noop)


def neutral(window: WindowSpec, limits: dict[WindowSpec, int | None]) -> int | None:
    """The most requests the other windows' ``limits`` let through in ``window``'s length: a
    shorter window its limit in each of its periods there, a longer one its limit. None
    without any."""
    bounds = [
        limit * math.ceil(window.seconds / other.seconds)
        if other.seconds < window.seconds
        else limit
        for other, limit in limits.items()
        if limit is not None
    ]
    return min(bounds, default=None)


def _has(model: Any, field: str) -> bool:
    try:
        model._meta.get_field(field)
    except FieldDoesNotExist:
        return False
    return True
