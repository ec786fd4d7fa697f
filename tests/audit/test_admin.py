"""The trail in the admin: listed and filtered, read-only, exported as CSV with the list's
filters."""

from __future__ import annotations

import csv
import io
from http import HTTPStatus

import pytest

from audit.models import Entry
from audit.services import record
from tests.admin_pages import column

TRAIL = "/admin/audit/entry/"

pytestmark = pytest.mark.django_db


@pytest.fixture
def entries(db) -> None:
    record(
        actor="manager",
        action="account.plan_changed",
        address="203.0.113.7",
        target_type="apikeys.account",
        target_repr="Paws",
        changes={"plan": ["free", "pro"]},
    )
    record(actor="=cmd()", action="staff.sign_in_failed", target_repr="mallory")


def exported(response) -> list[list[str]]:
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))


def test_it_lists_who_from_where_what_and_the_changes(admin_desk, entries):
    page = admin_desk.get(TRAIL, {"action": "account.plan_changed"})

    assert page.status_code == HTTPStatus.OK
    assert column(page, "actor") == ["manager"]
    assert column(page, "address") == ["203.0.113.7"]
    assert column(page, "target") == ["Paws"]
    assert column(page, "changes_summary") == ["plan: free → pro"]


def test_nobody_adds_changes_or_deletes_an_entry(admin_desk, entries):
    entry = Entry.objects.get(action="account.plan_changed")

    assert admin_desk.get(f"{TRAIL}add/").status_code == HTTPStatus.FORBIDDEN
    assert admin_desk.get(f"{TRAIL}{entry.pk}/delete/").status_code == HTTPStatus.FORBIDDEN
    assert admin_desk.post(f"{TRAIL}{entry.pk}/change/", {}).status_code == HTTPStatus.FORBIDDEN
    assert admin_desk.get(TRAIL).context["action_form"] is None  # no bulk delete either


def test_the_export_holds_the_filtered_rows(admin_desk, entries):
    rows = exported(admin_desk.get(f"{TRAIL}export.csv", {"action": "account.plan_changed"}))

    assert rows[0] == [
        "when",
        "actor",
        "address",
        "action",
        "object type",
        "object id",
        "object",
        "changes",
    ]
    assert [row[1:5] + row[6:] for row in rows[1:]] == [
        [
            "manager",
            "203.0.113.7",
            "account.plan_changed",
            "apikeys.account",
            "Paws",
            '{"plan": ["free", "pro"]}',
        ],
    ]


def test_the_export_defuses_cells_a_spreadsheet_would_run(admin_desk, entries):
    rows = exported(admin_desk.get(f"{TRAIL}export.csv", {"q": "mallory"}))

    assert [row[1] for row in rows[1:]] == ["'=cmd()"]


def test_the_list_links_to_the_export_with_its_filters(admin_desk, entries):
    page = admin_desk.get(TRAIL, {"action": "account.plan_changed"})

    assert f"{TRAIL}export.csv?action=account.plan_changed" in page.content.decode()
