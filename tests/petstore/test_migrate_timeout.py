"""``migrate`` runs without the requests' statement timeout, which would cancel a long migration
half way (a backfill, an index on a big table), and gives it back to the connection after."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.models.signals import pre_migrate

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def _timeout() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        return cursor.fetchone()[0]


def test_migrations_run_without_the_statement_timeout_and_requests_keep_theirs():
    seen: list[str] = []

    def during(**_: object) -> None:
        seen.append(_timeout())

    before = _timeout()
    pre_migrate.connect(during, dispatch_uid="test.during")
    try:
        call_command("migrate", verbosity=0)
    finally:
        pre_migrate.disconnect(dispatch_uid="test.during")

    assert before == "5s"
    assert seen
    assert set(seen) == {"0"}
    assert _timeout() == before
