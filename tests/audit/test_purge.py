"""purge_audit: the trail is kept for PETSTORE_AUDIT_KEPT_DAYS (a year) and no longer."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from audit.models import Entry
from audit.services import record

pytestmark = pytest.mark.django_db


def test_it_keeps_a_year_of_entries_and_deletes_older_ones(clock):
    now = timezone.now()
    for days in (364, 366):
        clock.set(now - timedelta(days=days))
        record(actor="manager", action="account.suspended", target_repr=f"{days} days old")
    clock.set(now)
    out = StringIO()

    call_command("purge_audit", stdout=out)

    assert list(Entry.objects.values_list("target_repr", flat=True)) == ["364 days old"]
    assert out.getvalue().startswith("Purged 1 ")
