"""Staff sign in with a password and a second factor, in Chromium: a fresh code from their
authenticator, or a recovery code (good once); a wrong code is refused and recorded; a member
without a device sets one up first, and can open nothing else until they have."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django_otp.oath import totp
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice
from playwright.sync_api import Page

from audit.models import Entry
from tests.browser.conftest import PASSWORD, screenshot

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

KEYS = "/admin/apikeys/apikey/"


@pytest.fixture
def member() -> User:
    user = User.objects.create_user("robin", password=PASSWORD, is_staff=True)
    user.groups.add(Group.objects.get(name="Account managers"))
    return user


def with_authenticator(user: User) -> TOTPDevice:
    return TOTPDevice.objects.create(user=user, name="Authenticator app", confirmed=True)


def code_of(key: bytes) -> str:
    return f"{totp(key):06d}"


def password(page: Page, base: str, next_url: str = "") -> None:
    page.goto(f"{base}/admin/login/?next={next_url or '/admin/'}")
    page.fill("#id_username", "robin")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")


def second_factor(page: Page, code: str) -> None:
    page.fill("#id_code", code)
    page.click("#second-factor-form input[type=submit]")


def test_a_member_signs_in_with_password_and_a_fresh_code(
    page: Page, live_server: Any, member: User
):
    device = with_authenticator(member)

    password(page, live_server.url, KEYS)
    page.wait_for_url("**/admin/second-factor/verify/**")
    second_factor(page, code_of(device.bin_key))

    page.wait_for_url(f"**{KEYS}")
    assert page.locator("#content h1").inner_text() == "Select API key to change"
    assert Entry.objects.filter(actor="robin", action="staff.signed_in").exists()


def test_a_wrong_code_is_refused_and_recorded(page: Page, live_server: Any, member: User):
    device = with_authenticator(member)
    wrong = f"{(int(code_of(device.bin_key)) + 500_000) % 1_000_000:06d}"

    password(page, live_server.url, KEYS)
    page.wait_for_url("**/admin/second-factor/verify/**")
    second_factor(page, wrong)

    assert "not right" in page.locator(".errornote").inner_text()
    page.goto(f"{live_server.url}{KEYS}")  # still nothing else opens
    assert "/admin/second-factor/verify/" in page.url
    failed = Entry.objects.get(action="staff.otp_failed")
    assert (failed.actor, failed.address) == ("robin", "127.0.0.1")
    assert wrong not in str(failed.changes)


def test_a_member_without_a_device_sets_one_up_before_anything_else(
    page: Page, live_server: Any, member: User
):
    password(page, live_server.url)
    page.wait_for_url("**/admin/second-factor/setup/**")
    page.goto(f"{live_server.url}{KEYS}")
    assert "/admin/second-factor/setup/" in page.url  # the keys page does not open
    assert page.locator(".second-factor-qr svg").count() == 1
    screenshot(page, "admin-second-factor-setup")

    secret = page.locator("#totp-secret").inner_text().replace(" ", "")
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    second_factor(page, code_of(key))

    codes = page.locator("#recovery-codes li").all_inner_texts()
    assert len(codes) == 10
    page.click("text=Continue")
    page.wait_for_url(f"**{KEYS}")
    assert TOTPDevice.objects.get(user=member).confirmed
    assert Entry.objects.filter(actor="robin", action="staff.otp_confirmed").exists()


def test_a_recovery_code_signs_in_once(page: Page, live_server: Any, member: User):
    with_authenticator(member)
    recovery = StaticDevice.objects.create(user=member, name="Recovery codes")
    recovery.token_set.create(token="abcd2345")

    password(page, live_server.url)
    page.wait_for_url("**/admin/second-factor/verify/**")
    second_factor(page, "abcd 2345")
    page.wait_for_url("**/admin/")
    page.context.clear_cookies()

    password(page, live_server.url)
    page.wait_for_url("**/admin/second-factor/verify/**")
    second_factor(page, "abcd2345")
    assert "used already" in page.locator(".errornote").inner_text()
    assert "/admin/second-factor/verify/" in page.url
