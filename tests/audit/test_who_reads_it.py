"""Who reads which part of the trail: account managers that of their own work (accounts, plans,
keys, bans, webhook endpoints), superusers all of it, staff sign-ins included; shelter staff
none of it."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from django.test import Client
from django.utils import timezone

from apikeys import services as apikey_services
from apikeys.models import Plan
from audit.models import Entry
from audit.services import Actor
from tests.admin_pages import column
from tests.audit.test_admin import exported
from tests.conftest import signed_in
from webhooks import services as webhook_services
from webhooks.models import Endpoint

TRAIL = "/admin/audit/entry/"
MANAGERS_WORK = {
    "account.created",
    "plan.limits_changed",
    "apikey.issued",
    "ban.recorded",
    "ban.lifted",
    "endpoint.disabled",
}
STAFF_MEMBERS = {"staff.signed_in", "staff.sign_in_failed"}

pytestmark = pytest.mark.django_db


@pytest.fixture
def trail(account_manager, make_account) -> None:
    """An account manager's day, made through the services that record it, after a failed
    sign-in of someone else and the manager's own sign-in."""
    assert not Client().login(username="mallory", password="guess")
    Client().force_login(account_manager)
    by = Actor("manager", "203.0.113.7")
    account = make_account(name="Paws")
    plan = Plan.objects.get(code="pro")
    plan.name = "Professional"
    apikey_services.plan_save(plan=plan, by=by)
    issued = apikey_services.apikey_issue(account=account, name="Adoption widget", by=by)
    now = timezone.now()
    ban = apikey_services.ban_record(api_key=issued.api_key, started_at=now, ends_at=now, number=1)
    apikey_services.ban_lift(ban=ban, by=by)
    endpoint = Endpoint.objects.create(account=account, url="https://hooks.example.com/")
    webhook_services.endpoint_set_enabled(endpoint, False, "gone", by=by)
    assert {entry.action for entry in Entry.objects.all()} == MANAGERS_WORK | STAFF_MEMBERS


def actions_listed(page) -> set[str]:
    assert page.status_code == HTTPStatus.OK
    return set(column(page, "action"))


def test_account_managers_read_the_trail_of_their_own_work(manager_desk, trail):
    assert actions_listed(manager_desk.get(TRAIL)) == MANAGERS_WORK


def test_account_managers_read_no_staff_sign_in_anywhere(manager_desk, trail):
    sign_in = Entry.objects.filter(action="staff.signed_in").first()
    assert sign_in is not None

    filters = manager_desk.get(TRAIL).content.decode()
    exported_actions = {row[3] for row in exported(manager_desk.get(f"{TRAIL}export.csv"))[1:]}
    opened = manager_desk.get(f"{TRAIL}{sign_in.pk}/change/")

    assert "mallory" not in filters  # not even as a name in the actor filter
    assert "auth.user" not in filters
    assert exported_actions == MANAGERS_WORK
    assert opened.status_code == HTTPStatus.FOUND  # to the index: "doesn't exist"
    assert actions_listed(manager_desk.get(TRAIL, {"action": "staff.signed_in"})) == set()


def test_superusers_read_all_of_it(admin_desk, trail):
    assert actions_listed(admin_desk.get(TRAIL)) == MANAGERS_WORK | STAFF_MEMBERS


def test_shelter_staff_do_not_read_it(client, shelter_staff, trail):
    desk = signed_in(client, shelter_staff)

    assert desk.get(TRAIL).status_code == HTTPStatus.FORBIDDEN
    assert desk.get(f"{TRAIL}export.csv").status_code == HTTPStatus.FORBIDDEN


def test_the_trail_is_on_the_account_managers_index(manager_desk):
    assert 'href="/admin/audit/entry/"' in manager_desk.get("/admin/").content.decode()
