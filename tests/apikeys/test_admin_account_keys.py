"""An account's keys on its page: Rotate and Revoke per key, each through a confirmation page
(GET asks, POST acts), recorded in the history like the key list's actions, for those who may
change keys only."""

from __future__ import annotations

import re
from datetime import timedelta
from http import HTTPStatus

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission
from django.test import Client
from django.utils import timezone

from apikeys.models import ApiKey
from apikeys.services import apikey_revoke
from tests.admin_pages import shown_messages
from tests.apikeys.test_admin import api_call, change_url, issue, keys_in, log_messages
from tests.assertions import assert_error
from tests.conftest import signed_in


def rotate_url(key: ApiKey) -> str:
    return f"/admin/apikeys/account/{key.account_id}/keys/{key.pk}/rotate/"


def revoke_url(key: ApiKey) -> str:
    return f"/admin/apikeys/account/{key.account_id}/keys/{key.pk}/revoke/"


def breadcrumbs(response) -> str:
    (trail,) = re.findall(r'<div class="breadcrumbs">(.*?)</div>', response.content.decode(), re.S)
    return trail


def confirm_rotation(manager_client, key: ApiKey, grace_hours: int = 24):
    page = manager_client.get(rotate_url(key))
    data = {"grace_hours": grace_hours, "one_time_token": page.context["one_time_token"]}
    return data, manager_client.post(rotate_url(key), data)


@pytest.fixture
def viewer_client(db, django_user_model) -> Client:
    """A staff member who may see accounts and keys, but not change keys."""
    user = django_user_model.objects.create_user(username="viewer", is_staff=True)
    user.user_permissions.set(
        Permission.objects.filter(codename__in=["view_account", "change_account", "view_apikey"])
    )
    return signed_in(Client(), user)


# The account's page ------------------------------------------------------------------------


def test_the_account_page_lists_each_key_with_its_state_last_use_and_buttons(
    manager_client, client, auth, key_row, make_key
):
    make_key(account=key_row.account)
    client.get("/v1/pets", headers=auth)
    other = ApiKey.objects.exclude(pk=key_row.pk).get()

    html = manager_client.get(change_url(key_row.account)).content.decode()

    for key in (key_row, other):
        assert f'href="{rotate_url(key)}"' in html
        assert f'href="{revoke_url(key)}"' in html
    assert html.count("✓</span> active") == 2
    assert timezone.now().strftime("%Y-%m-%d") in html  # the last use of key_row


def test_a_revoked_key_has_no_buttons_and_an_expired_one_only_revoke(
    manager_client, key_row, make_key
):
    apikey_revoke(api_key=key_row)
    make_key(account=key_row.account, expires_in=timedelta(hours=1))
    expired = ApiKey.objects.exclude(pk=key_row.pk).get()
    ApiKey.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(minutes=1))

    html = manager_client.get(change_url(key_row.account)).content.decode()

    assert "✕</span> revoked" in html
    assert "✕</span> expired" in html
    assert rotate_url(key_row) not in html
    assert revoke_url(key_row) not in html
    assert rotate_url(expired) not in html
    assert revoke_url(expired) in html


def test_without_change_permission_on_keys_the_page_shows_no_buttons(viewer_client, key_row):
    response = viewer_client.get(change_url(key_row.account))

    assert response.status_code == HTTPStatus.OK
    html = response.content.decode()
    assert key_row.prefix in html
    assert rotate_url(key_row) not in html
    assert revoke_url(key_row) not in html


# Revoking ---------------------------------------------------------------------------------


def test_revoking_asks_first_and_changes_nothing(manager_client, client, auth, key_row):
    response = manager_client.get(revoke_url(key_row))

    assert response.status_code == HTTPStatus.OK
    html = response.content.decode()
    assert "Yes, revoke" in html
    assert f"{key_row.prefix}…" in html
    key_row.refresh_from_db()
    assert key_row.revoked_at is None
    assert not LogEntry.objects.exists()
    assert client.get("/v1/pets", headers=auth).status_code == HTTPStatus.OK


def test_a_confirmed_revocation_is_recorded_and_refuses_the_next_request(
    manager_client, account_manager, client, auth, key_row
):
    response = manager_client.post(revoke_url(key_row), follow=True)

    assert response.redirect_chain == [(change_url(key_row.account), HTTPStatus.FOUND)]
    assert shown_messages(response) == [
        f"Key {key_row.prefix}… revoked; it is refused from its next request on."
    ]
    key_row.refresh_from_db()
    assert key_row.revoked_by == account_manager
    assert log_messages(key_row) == ["Revoked"]
    assert LogEntry.objects.get().user == account_manager
    refused = client.get("/v1/pets", headers=auth)
    assert_error(refused, HTTPStatus.UNAUTHORIZED, "unauthorized")
    assert refused.json()["message"] == "This API key has been revoked."


def test_revoking_a_revoked_key_again_records_nothing(manager_client, key_row):
    manager_client.post(revoke_url(key_row), follow=True)

    again = manager_client.post(revoke_url(key_row), follow=True)

    assert shown_messages(again) == [f"Key {key_row.prefix}… was already revoked."]
    assert log_messages(key_row) == ["Revoked"]


def test_revoking_only_touches_that_key(manager_client, client, key_row, make_key):
    other = make_key(account=key_row.account)

    manager_client.post(revoke_url(key_row))

    assert api_call(client, other).status_code == HTTPStatus.OK
    assert ApiKey.objects.filter(revoked_at__isnull=False).get() == key_row


# Rotating ---------------------------------------------------------------------------------


def test_rotating_asks_first_with_a_day_of_grace_and_changes_nothing(manager_client, key_row):
    response = manager_client.get(rotate_url(key_row))

    assert response.status_code == HTTPStatus.OK
    assert response.context["form"]["grace_hours"].value() == 24
    assert "Yes, rotate" in response.content.decode()
    assert ApiKey.objects.count() == 1
    key_row.refresh_from_db()
    assert key_row.expires_at is None
    assert not LogEntry.objects.exists()


def test_a_confirmed_rotation_shows_the_replacement_once_and_is_recorded(
    manager_client, client, api_key, key_row
):
    _, response = confirm_rotation(manager_client, key_row)

    assert response.status_code == HTTPStatus.OK
    assert "no-store" in response["Cache-Control"].split(", ")
    (new_raw,) = keys_in(response)
    assert new_raw != api_key
    key_row.refresh_from_db()
    assert abs(key_row.expires_at - (timezone.now() + timedelta(hours=24))) < timedelta(minutes=1)
    assert api_call(client, api_key).status_code == HTTPStatus.OK
    assert api_call(client, new_raw).status_code == HTTPStatus.OK
    new_key = ApiKey.objects.exclude(pk=key_row.pk).get()
    assert new_key.account == key_row.account
    assert log_messages(key_row) == [f"Rotated: replaced by {new_key.prefix}…"]
    assert log_messages(new_key) == [f"Issued to replace {key_row.prefix}…"]
    (message,) = shown_messages(response)
    assert message.startswith(f"Key {key_row.prefix}… rotated: it keeps working until ")
    assert new_raw not in message


def test_reposting_a_rotation_rotates_nothing_more(manager_client, key_row):
    data, first = confirm_rotation(manager_client, key_row)
    (new_raw,) = keys_in(first)

    again = manager_client.post(rotate_url(key_row), data, follow=True)

    assert again.redirect_chain == [(change_url(key_row.account), HTTPStatus.FOUND)]
    assert new_raw not in again.content.decode()
    assert "That form was already used; nothing was rotated." in shown_messages(again)
    assert ApiKey.objects.count() == 2


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_revoked_key_cannot_be_rotated(manager_client, client, api_key, key_row, method):
    apikey_revoke(api_key=key_row)

    response = getattr(manager_client, method)(
        rotate_url(key_row), {"grace_hours": 24}, follow=True
    )

    assert response.redirect_chain == [(change_url(key_row.account), HTTPStatus.FOUND)]
    assert shown_messages(response) == [
        f"Key {key_row.prefix}… is revoked and cannot be rotated: issue a new key instead."
    ]
    assert not keys_in(response)
    assert ApiKey.objects.count() == 1
    assert not LogEntry.objects.exists()
    assert_error(api_call(client, api_key), HTTPStatus.UNAUTHORIZED, "unauthorized")


# Who may, and which keys ------------------------------------------------------------------


@pytest.mark.parametrize("who", ["viewer_client", "staff_client"])
@pytest.mark.parametrize("url", [rotate_url, revoke_url])
@pytest.mark.parametrize("method", ["get", "post"])
def test_without_change_permission_on_keys_it_is_forbidden(
    request, client, auth, key_row, who, url, method
):
    admin_client = request.getfixturevalue(who)

    response = getattr(admin_client, method)(url(key_row), {"grace_hours": 24})

    assert response.status_code == HTTPStatus.FORBIDDEN
    assert not keys_in(response)
    assert ApiKey.objects.count() == 1
    key_row.refresh_from_db()
    assert (key_row.revoked_at, key_row.expires_at) == (None, None)
    assert not LogEntry.objects.exists()
    assert client.get("/v1/pets", headers=auth).status_code == HTTPStatus.OK


@pytest.mark.parametrize("url", [rotate_url, revoke_url])
def test_a_key_is_reached_only_through_its_own_account(manager_client, key_row, make_account, url):
    elsewhere = ApiKey(pk=key_row.pk, account_id=make_account(name="Other").pk)

    response = manager_client.post(url(elsewhere))

    assert response.status_code == HTTPStatus.NOT_FOUND
    key_row.refresh_from_db()
    assert key_row.revoked_at is None


# Breadcrumbs ------------------------------------------------------------------------------


def test_the_confirmation_pages_lead_back_to_the_account(manager_client, key_row):
    account = key_row.account
    for url in (rotate_url(key_row), revoke_url(key_row)):
        trail = breadcrumbs(manager_client.get(url))

        assert '<a href="/admin/apikeys/account/">Accounts</a>' in trail
        assert f'<a href="{change_url(account)}">{account.name}</a>' in trail


@pytest.mark.parametrize("how", ["issued", "rotated"])
def test_the_key_issued_page_leads_back_to_the_account(manager_client, key_row, how):
    account = key_row.account
    if how == "issued":
        _, response = issue(manager_client, account, name="web app")
    else:
        _, response = confirm_rotation(manager_client, key_row)

    trail = breadcrumbs(response)

    assert trail.startswith('\n  <a href="/admin/">Home</a>')
    assert '<a href="/admin/apikeys/account/">Accounts</a>' in trail
    assert f'<a href="{change_url(account)}">{account.name}</a>' in trail
