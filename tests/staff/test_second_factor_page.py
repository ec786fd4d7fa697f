"""Until its second factor is given, a session signed in with a password alone sees the second
factor's page and nothing of the admin: no navigation, no list of models, no link to one."""

from __future__ import annotations

import re
from http import HTTPStatus

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple 60"
KEYS = "/admin/apikeys/apikey/"
# A link to any admin page but the second factor's own, signing in and out.
ADMIN_LINK = re.compile(r'href="/admin/(?!second-factor/|login/|logout/|jsi18n/)[^"]*"')


@pytest.fixture
def member() -> User:
    user = User.objects.create_user("robin", password=PASSWORD, is_staff=True)
    user.groups.add(Group.objects.get(name="Account managers"))
    return user


def password_only(client: Client) -> None:
    response = client.post("/admin/login/", {"username": "robin", "password": PASSWORD})
    assert response.status_code == HTTPStatus.FOUND, response.content


def shows_only_the_second_factor(html: str) -> None:
    assert 'id="second-factor-form"' in html
    assert 'id="nav-sidebar"' not in html
    assert "app-apikeys" not in html
    assert 'id="user-tools"' not in html
    assert ADMIN_LINK.findall(html) == []


@pytest.mark.parametrize("path", ["/admin/", KEYS, "/admin/second-factor/verify/"])
def test_a_password_only_session_sees_only_the_code_page(client, member, path):
    TOTPDevice.objects.create(user=member, name="Authenticator app", confirmed=True)
    password_only(client)

    response = client.get(path, follow=True)

    assert response.status_code == HTTPStatus.OK
    assert response.request["PATH_INFO"] == "/admin/second-factor/verify/"
    shows_only_the_second_factor(response.content.decode())


@pytest.mark.parametrize("path", ["/admin/", KEYS])
def test_a_member_without_a_device_sees_only_the_set_up_page(client, member, path):
    password_only(client)

    response = client.get(path, follow=True)

    assert response.status_code == HTTPStatus.OK
    assert response.request["PATH_INFO"] == "/admin/second-factor/setup/"
    shows_only_the_second_factor(response.content.decode())


def test_after_the_code_the_navigation_is_there(client, member):
    device = TOTPDevice.objects.create(user=member, name="Authenticator app", confirmed=True)
    password_only(client)

    verified = client.post(
        f"/admin/second-factor/verify/?next={KEYS}", {"code": f"{totp(device.bin_key):06d}"}
    )
    page = client.get(KEYS).content.decode()

    assert verified.status_code == HTTPStatus.FOUND
    assert verified["Location"] == KEYS
    assert 'id="nav-sidebar"' in page
    assert 'id="user-tools"' in page
    assert 'href="/admin/apikeys/apikey/"' in page
