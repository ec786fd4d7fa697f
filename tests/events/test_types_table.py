"""An event type is a row of ``events.types``: a new one needs no migration, recording takes
only the table's, and the admin filters by the table's labels."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from django.db import transaction

from events.models import Event
from events.services import event_record
from events.types import EventType
from tests.embedded import ROOT

# Run where the table has the new row (not imported here: it would change this process's table):
# the column offers it, and no migration is wanted.
NEW_TYPE = "test_only.row_added"
CHECK = f"""
import django
from django.core.management import call_command
django.setup()
from events.models import Event
print(dict(Event._meta.get_field("type").flatchoices)[{NEW_TYPE!r}])
call_command("makemigrations", "--check", "--dry-run", verbosity=1)
"""


def test_a_new_type_in_the_table_needs_no_migration():
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "tests.events.settings_with_a_new_type",
        "DATABASE_URL": "sqlite://:memory:",
        "DEBUG": "1",
    }
    ran = subprocess.run(
        [sys.executable, "-c", CHECK], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )

    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert ran.stdout.splitlines() == ["A row only the tests add", "No changes detected"]


@pytest.mark.django_db
def test_a_type_outside_the_table_is_not_recorded():
    refused = pytest.raises(ValueError, match=re.escape("'category.renamed' is not a type"))
    with refused, transaction.atomic():
        event_record("category.renamed", {"id": 1})

    assert not Event.objects.exists()


@pytest.mark.django_db
def test_the_admin_filters_events_by_the_tables_labels(admin_client):
    with transaction.atomic():
        event_record(EventType.CATEGORY_CREATED, {"id": 1})

    page = admin_client.get("/admin/events/event/").content.decode()

    for kind in EventType:
        assert f'href="?type__exact={kind.value}"' in page
        assert f">{kind.label}</a>" in page.replace("&#x27;", "'")
