"""A key's issue, rotation, revocation and expiry change, in the trail with who made it, from
where, and its before and after: through the admin, its bulk actions and the commands."""

from __future__ import annotations

from datetime import timedelta
from http import HTTPStatus
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from apikeys.models import ApiKey
from tests.admin_pages import form_data
from tests.audit.conftest import MANAGER_ADDRESS, every, iso, only, run_action

KEYS = "/admin/apikeys/apikey/"

pytestmark = pytest.mark.django_db


def test_a_key_issued_from_an_account_page_is_recorded(manager_desk, make_account):
    account = make_account(name="Paws")
    url = f"/admin/apikeys/account/{account.pk}/issue-key/"
    form = manager_desk.get(url)

    manager_desk.post(
        url,
        {"name": "web", "expires_in_days": "", "one_time_token": form.context["one_time_token"]},
    )

    api_key = ApiKey.objects.get()
    entry = only("apikey.issued")
    assert (entry.actor, entry.address) == ("manager", MANAGER_ADDRESS)
    assert (entry.target_type, entry.target_id) == ("apikeys.apikey", str(api_key.pk))
    assert entry.target_repr == f"{api_key.prefix}… (web)"
    assert entry.changes["prefix"] == [None, api_key.prefix]
    assert entry.changes["name"] == [None, "web"]


def test_keys_revoked_by_the_bulk_action_are_recorded_each(manager_desk, make_account, make_key):
    account = make_account()
    make_key(account), make_key(account)
    first, second = ApiKey.objects.order_by("id")

    response = run_action(manager_desk, KEYS, "revoke", [first, second], confirm="yes")

    assert response.status_code == HTTPStatus.FOUND
    revoked = ApiKey.objects.order_by("id")
    entries = {e.target_id: e for e in every("apikey.revoked")}
    assert set(entries) == {str(first.pk), str(second.pk)}
    for api_key in revoked:
        entry = entries[str(api_key.pk)]
        assert (entry.actor, entry.address) == ("manager", MANAGER_ADDRESS)
        assert entry.changes == {"revoked_at": [None, iso(api_key.revoked_at)]}


def test_a_rotation_records_the_old_keys_new_expiry_and_its_replacement(
    manager_desk, key_row, clock
):
    page = run_action(manager_desk, KEYS, "rotate", [key_row])
    manager_desk.post(
        KEYS,
        {
            "action": "rotate",
            "_selected_action": [key_row.pk],
            "confirm": "yes",
            "one_time_token": page.context["one_time_token"],
            "grace_hours": 2,
        },
    )

    new = ApiKey.objects.exclude(pk=key_row.pk).get()
    key_row.refresh_from_db()
    rotated = only("apikey.rotated")
    assert (rotated.actor, rotated.address, rotated.target_id) == (
        "manager",
        MANAGER_ADDRESS,
        str(key_row.pk),
    )
    assert rotated.changes == {
        "expires_at": [None, iso(timezone.now() + timedelta(hours=2))],
        "replaced_by": [None, new.prefix],
    }
    issued = only("apikey.issued", new)
    assert (issued.actor, issued.address) == ("manager", MANAGER_ADDRESS)
    assert issued.changes["replaces"] == [None, key_row.prefix]


def test_an_expiry_changed_on_the_key_page_is_recorded(manager_desk, key_row, clock):
    url = f"{KEYS}{key_row.pk}/change/"
    form = manager_desk.get(url)

    response = manager_desk.post(
        url, form_data(form, expires_at_0="2027-01-31", expires_at_1="12:00:00")
    )

    assert response.status_code == HTTPStatus.FOUND
    entry = only("apikey.expiry_changed")
    assert (entry.actor, entry.address, entry.target_id) == (
        "manager",
        MANAGER_ADDRESS,
        str(key_row.pk),
    )
    assert entry.changes == {"expires_at": [None, "2027-01-31T12:00:00Z"]}


def test_a_key_issued_by_createapikey_is_recorded_as_the_commands(db):
    call_command("createapikey", "--plan", "pro", "--name", "Partner", stdout=StringIO())

    api_key = ApiKey.objects.get()
    issued, created = only("apikey.issued"), only("account.created")
    assert (issued.actor, issued.address, issued.target_id) == (
        "command:createapikey",
        "",
        str(api_key.pk),
    )
    assert issued.changes["scopes"] == [None, api_key.scope_list]
    assert (created.actor, created.target_id) == ("command:createapikey", str(api_key.account_id))
    assert created.changes["plan"] == [None, "pro"]


def test_a_plan_changed_by_createapikey_is_recorded_as_the_commands(make_account):
    account = make_account(name="Paws")

    call_command("createapikey", "--plan", "business", "--account", "Paws", stdout=StringIO())

    entry = only("account.plan_changed")
    assert (entry.actor, entry.target_id) == ("command:createapikey", str(account.pk))
    assert entry.changes == {"plan": ["free", "business"]}


def test_a_key_revoked_by_revokeapikey_is_recorded_as_the_commands(key_row):
    call_command("revokeapikey", key_row.prefix, stdout=StringIO())

    key_row.refresh_from_db()
    entry = only("apikey.revoked")
    assert (entry.actor, entry.address, entry.target_id) == (
        "command:revokeapikey",
        "",
        str(key_row.pk),
    )
    assert entry.changes == {"revoked_at": [None, iso(key_row.revoked_at)]}
