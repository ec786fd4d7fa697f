"""Staff sessions: unverified, a member reaches nothing but the second factor's pages; a
session ends after the idle time, and when the member's devices or password change."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from django.contrib.auth.models import Permission
from django_otp.plugins.otp_totp.models import TOTPDevice

from audit.models import Entry

pytestmark = pytest.mark.django_db

KEYS = "/admin/apikeys/apikey/"


def test_a_member_with_a_device_is_asked_for_a_code_before_any_page(client, account_manager):
    TOTPDevice.objects.create(user=account_manager, name="Authenticator app", confirmed=True)
    client.force_login(account_manager)

    response = client.get(KEYS)

    assert response.status_code == HTTPStatus.FOUND
    assert response["Location"] == f"/admin/second-factor/verify/?next={KEYS.replace('/', '%2F')}"


def test_a_member_without_a_device_is_sent_to_set_one_up(client, account_manager):
    client.force_login(account_manager)

    response = client.get(KEYS)

    assert response.status_code == HTTPStatus.FOUND
    assert response["Location"].startswith("/admin/second-factor/setup/")
    page = client.get(response["Location"])
    assert page.status_code == HTTPStatus.OK
    assert b"<svg" in page.content


def test_without_the_second_factor_setting_a_password_is_enough(client, account_manager, settings):
    settings.PETSTORE_ADMIN_SECOND_FACTOR = False  # make run's local admin
    client.force_login(account_manager)

    assert client.get(KEYS).status_code == HTTPStatus.OK


def test_an_idle_session_is_sent_back_to_sign_in(manager_client, clock, settings):
    assert settings.PETSTORE_ADMIN_IDLE_MINUTES == 30
    manager_client.get(KEYS)
    clock.advance(29 * 60)
    assert manager_client.get(KEYS).status_code == HTTPStatus.OK  # and starts the minutes again
    clock.advance(29 * 60)
    assert manager_client.get(KEYS).status_code == HTTPStatus.OK

    clock.advance(31 * 60)
    response = manager_client.get(KEYS)

    assert response.status_code == HTTPStatus.FOUND
    assert response["Location"].startswith("/admin/login/")


def test_a_superuser_resets_a_member_s_devices_and_their_session_ends(
    admin_client, manager_client, account_manager
):
    assert manager_client.get(KEYS).status_code == HTTPStatus.OK

    response = admin_client.post(
        "/admin/auth/user/",
        {"action": "reset_second_factor", "_selected_action": [account_manager.pk]},
        REMOTE_ADDR="10.1.2.3",
    )

    assert response.status_code == HTTPStatus.FOUND
    assert not TOTPDevice.objects.filter(user=account_manager).exists()
    after = manager_client.get(KEYS)
    assert after.status_code == HTTPStatus.FOUND
    assert after["Location"].startswith("/admin/login/")
    entry = Entry.objects.get(action="staff.devices_reset")
    assert (entry.actor, entry.address) == ("admin", "10.1.2.3")
    assert entry.changes == {"devices": [["Authenticator app"], []]}


def test_only_superusers_may_reset_devices(manager_client, account_manager):
    account_manager.user_permissions.add(*_user_permissions())
    response = manager_client.get("/admin/auth/user/")

    assert response.status_code == HTTPStatus.OK
    assert b"reset_second_factor" not in response.content


def test_a_password_change_ends_the_session(manager_client, account_manager):
    account_manager.set_password("a-new-long-password-2")
    account_manager.save()

    response = manager_client.get(KEYS)

    assert response.status_code == HTTPStatus.FOUND
    assert response["Location"].startswith("/admin/login/")


def test_the_api_does_not_pass_through_the_second_factor(client, api_key):
    response = client.get("/v1/pets", headers={"Authorization": f"Bearer {api_key}"})

    assert response.status_code == HTTPStatus.OK


def _user_permissions():
    return Permission.objects.filter(codename__in=["view_user", "change_user"])
