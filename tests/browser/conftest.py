"""Browser tests: Debian's Chromium driven by Playwright against pytest-django's live server."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.db import connections
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from playwright.sync_api import Page, sync_playwright

CHROMIUM = os.environ.get("PETSTORE_CHROMIUM", "/usr/bin/chromium")
# Without these Chromium keeps reaching for Google's services, which this network refuses.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PASSWORD = "a-long-test-password-1"


def _require_chromium() -> None:
    if shutil.which(CHROMIUM) is None and not Path(CHROMIUM).exists():
        pytest.fail(
            f"Chromium is not installed at {CHROMIUM}: the browser tests need it. "
            "Install it with `apt-get install chromium` (.ci/run does), or point "
            "PETSTORE_CHROMIUM at one.",
            pytrace=False,
        )


@pytest.fixture
def page(live_server: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Page]:
    """A fresh browser page. Started after the live server (and so after the test database is
    set up), because Playwright's sync API runs an event loop in this thread, and Django refuses
    ORM calls beside a running loop unless told that they are synchronous all the same."""
    _require_chromium()
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        # A common laptop's screen: the admin is laid out to work at this width.
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        page = context.new_page()
        page.set_default_timeout(15_000)
        yield page
        browser.close()
        # Inside the running loop Django's connection storage is per context: the connection the
        # test used while the browser ran is not the one it gets back afterwards. Close it here,
        # or it stays open and the test database cannot be dropped at the end.
        connections.close_all()


def screenshot(page: Page, name: str) -> None:
    """Refresh the screenshots of docs/staff.md when asked to (SAVE_SCREENSHOTS=1)."""
    if os.environ.get("SAVE_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def make_staff(username: str, group: str) -> User:
    user = User.objects.create_user(username, password=PASSWORD, is_staff=True)
    user.groups.add(Group.objects.get(name=group))
    StaticDevice.objects.create(user=user, name="Recovery codes")
    return user


def log_in(page: Page, base_url: str, username: str) -> None:
    """The password, then the second factor: one of the member's recovery codes, made now,
    since each signs in once."""
    page.goto(f"{base_url}/admin/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url("**/second-factor/verify/**")
    device = StaticDevice.objects.get(user__username=username)
    code = device.token_set.create(token=StaticToken.random_token()).token
    page.fill("#id_code", code)
    page.click("#second-factor-form input[type=submit]")
    page.wait_for_selector("#user-tools")
