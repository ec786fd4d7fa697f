"""An account manager looks for upgrade candidates: the near-limit filter, then the account's
30-day chart, in Chromium at 1280 by 800."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import Page

from apikeys import services as apikey_services
from apikeys.models import Account, ApiKey, DailyUsage, Plan
from apikeys.usage import utc_today
from tests.browser.conftest import log_in, make_staff, screenshot

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def admitted_on(days_ago: int) -> int:
    """A shelter app that grows through the month, with quiet weekends-ish dips."""
    return 250 + (29 - days_ago) * 22 + (days_ago % 7) * 15


def refused_on(days_ago: int) -> int:
    return 40 if days_ago in (2, 5) else 0


def thirty_days(account: Account, api_key: ApiKey, busy: bool) -> None:
    today = utc_today()
    for days_ago in range(30):
        DailyUsage.objects.create(
            day=today - timedelta(days=days_ago),
            account=account,
            api_key=api_key,
            admitted=admitted_on(days_ago) if busy else 120,
            refused=refused_on(days_ago) if busy else 0,
            limits={"minute": 60, "day": 1000},
            epoch="browser-test",
            rolled_up_at=datetime.now(UTC),
        )


@pytest.fixture
def accounts() -> tuple[Account, Account]:
    free = Plan.objects.get(code="free")
    growing = apikey_services.account_create(
        name="Riverside Rescue", email="ops@riverside.example", plan=free
    )
    quiet = apikey_services.account_create(name="Quiet Paws", plan=free)
    for account, busy in ((growing, True), (quiet, False)):
        issued = apikey_services.apikey_issue(account=account, name="adoption widget")
        thirty_days(account, issued.api_key, busy)
    return growing, quiet


def test_a_manager_finds_an_account_near_its_limit_and_reads_its_chart(
    page: Page, live_server: Any, accounts: tuple[Account, Account]
):
    growing, _ = accounts
    make_staff("manager", "Account managers")
    log_in(page, live_server.url, "manager")

    page.goto(f"{live_server.url}/admin/apikeys/account/")
    page.get_by_role("link", name="Near their limit (≥ 80% on any of the last 7 days)").click()
    page.wait_for_url("**/admin/apikeys/account/?usage=near-limit")
    rows = page.locator("#result_list tbody tr")
    assert rows.count() == 1
    assert "Riverside Rescue" in rows.first.inner_text()
    peak = max(admitted_on(days_ago) for days_ago in range(7))
    assert f"▲ {round(peak / 10)}%" in rows.first.locator(".field-peak_day").inner_text()

    rows.first.locator("th a").first.click()
    page.wait_for_url(re.compile(rf"/admin/apikeys/account/{growing.pk}/change/"))
    chart = page.locator("#usage-account")
    chart.scroll_into_view_if_needed()
    bars = chart.locator("g.bar")
    assert bars.count() == 30
    found = chart.evaluate(
        """(figure) => [...figure.querySelectorAll('g.bar')].map((bar) => ({
             date: bar.dataset.date,
             title: bar.querySelector('title').textContent,
             admitted: bar.querySelector('.bar-admitted').getBBox().height,
             refused: bar.querySelector('.bar-refused').getBBox().height,
           }))"""
    )
    today = utc_today()
    assert [bar["date"] for bar in found] == [
        (today - timedelta(days=29 - n)).isoformat() for n in range(30)
    ]
    # Bars are drawn to one scale: each bar's height is its count's share of the tallest.
    tallest = max(found, key=lambda bar: bar["admitted"])
    for days_ago, bar in zip(range(29, -1, -1), found, strict=True):
        expected = admitted_on(days_ago) / admitted_on(0) * tallest["admitted"]
        assert bar["admitted"] == pytest.approx(expected, abs=0.1)
    two_days_ago = found[-3]
    assert two_days_ago["title"].startswith(
        f"{today - timedelta(days=2):%a %d %b %Y}: {admitted_on(2):,} admitted, 40 refused"
    )
    assert two_days_ago["refused"] > 0
    assert found[-2]["refused"] == 0
    assert chart.locator("polyline.limit").count() == 1
    assert chart.get_by_text("refused: over a limit or banned (hatched)").is_visible()
    assert page.locator(".usage-csv").get_attribute("href") == (
        f"/admin/apikeys/account/{growing.pk}/usage.csv"
    )
    screenshot(page, "account-usage")
