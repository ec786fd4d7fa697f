"""Usage in the admin: an account's charts and CSV, the list's recent totals and its
near-limit filter; the same figures as GET /v1/usage."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta
from html import unescape
from http import HTTPStatus

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apikeys.models import Account, ApiKey, DailyUsage
from apikeys.usage import usage_rollup
from apikeys.windows import WINDOWS
from tests.admin_pages import column, listed
from tests.conftest import CLOCK_START

TODAY = CLOCK_START.date()


def record(api_key: ApiKey, days_ago: int, admitted: int, refused: int = 0, per_day: int = 1000):
    """A rolled-up day, as the roll-up would have written it."""
    DailyUsage.objects.create(
        day=TODAY - timedelta(days=days_ago),
        account_id=api_key.account_id,
        api_key=api_key,
        admitted=admitted,
        refused=refused,
        limits={"minute": 60, "day": per_day},
        epoch="earlier",
        rolled_up_at=CLOCK_START,
    )


def first_key(account: Account) -> ApiKey:
    return account.api_keys.order_by("id").first()  # type: ignore[return-value]


@pytest.fixture
def busy(make_account, make_key) -> Account:
    """An account that used 850 of its 1,000 on one day last week: near its limit."""
    account = make_account(name="Busy shelter")
    make_key(account=account)
    key = first_key(account)
    record(key, 3, 850, refused=12)
    record(key, 1, 100)
    return account


@pytest.fixture
def quiet(make_account, make_key) -> Account:
    account = make_account(name="Quiet shelter")
    make_key(account=account)
    record(first_key(account), 2, 300)
    record(first_key(account), 9, 990)  # before the last 7 days: not counted
    return account


def bars(html: str, chart_id: str) -> list[tuple[str, int, int, str]]:
    chart = html.split(f'id="{chart_id}"', 1)[1].split("</figure>", 1)[0]
    return [
        (date, int(admitted), int(refused), unescape(title))
        for date, admitted, refused, title in re.findall(
            r'<g class="bar" data-date="([^"]+)" data-admitted="(\d+)" data-refused="(\d+)">\s*'
            r"<title>([^<]*)</title>",
            chart,
        )
    ]


def test_an_accounts_page_charts_thirty_days_for_the_account_and_each_key(
    manager_client, clock, busy
):
    response = manager_client.get(f"/admin/apikeys/account/{busy.pk}/change/")

    html = response.content.decode()
    account_bars = bars(html, "usage-account")
    assert len(account_bars) == 30
    assert account_bars[0][0] == (TODAY - timedelta(days=29)).isoformat()
    assert account_bars[-1][0] == TODAY.isoformat()
    day = account_bars[-4]
    assert day[:3] == ((TODAY - timedelta(days=3)).isoformat(), 850, 12)
    assert "850 admitted, 12 refused; limit 1,000 a day (85% used)" in day[3]
    assert len(bars(html, f"usage-key-{first_key(busy).pk}")) == 30
    assert 'class="limit"' in html
    assert "The figures as a table" in html


def test_the_csv_holds_the_accounts_ninety_days_and_each_keys(manager_client, clock, busy):
    response = manager_client.get(f"/admin/apikeys/account/{busy.pk}/usage.csv")

    assert response.status_code == HTTPStatus.OK
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    lines = list(csv.reader(io.StringIO(response.content.decode())))
    assert lines[0] == ["date", "key", "admitted", "refused", "banned", *(w.per for w in WINDOWS)]
    totals = [dict(zip(lines[0], line, strict=True)) for line in lines[1:] if line[1] == "all keys"]
    assert len(totals) == 90
    day = (TODAY - timedelta(days=3)).isoformat()
    # The limits the day recorded; a window it did not record is left empty.
    limits = [{"minute": "60", "day": "1000"}.get(w.name, "") for w in WINDOWS]
    assert [day, "all keys", "850", "12", "0", *limits] in lines
    assert [day, first_key(busy).prefix, "850", "12", "0", *limits] in lines


def test_only_those_who_may_see_the_account_get_its_csv(staff_client, clock, busy):
    response = staff_client.get(f"/admin/apikeys/account/{busy.pk}/usage.csv")

    assert response.status_code == HTTPStatus.FORBIDDEN


def test_the_api_reports_the_figures_the_admin_shows(client, manager_client, clock, make_key):
    account = Account.objects.create(name="Both views", plan_id=1)
    first, second = make_key(account=account), make_key(account=account)
    clock.set(CLOCK_START - timedelta(days=1))
    for key, times in ((first, 30), (second, 35)):
        for _ in range(times):
            client.get("/v1/categories", headers={"Authorization": f"Bearer {key}"})
    usage_rollup()
    clock.set(CLOCK_START)
    for _ in range(4):
        client.get("/v1/pets", headers={"Authorization": f"Bearer {second}"})

    api = client.get("/v1/usage?days=90", headers={"Authorization": f"Bearer {first}"}).json()
    page = manager_client.get(f"/admin/apikeys/account/{account.pk}/change/").content.decode()
    exported = manager_client.get(f"/admin/apikeys/account/{account.pk}/usage.csv")

    charted = [(d, a, r) for d, a, r, _ in bars(page, "usage-account")]
    assert charted == [(d["date"], d["admitted"], d["refused"] + d["banned"]) for d in api[-30:]]
    rows = [line for line in csv.reader(io.StringIO(exported.content.decode()))][1:]
    assert [(r[0], int(r[2]), int(r[3]), int(r[4])) for r in rows if r[1] == "all keys"] == [
        (d["date"], d["admitted"], d["refused"], d["banned"]) for d in api
    ]
    assert api[-2]["admitted"] == 60
    assert api[-2]["refused"] == 5
    assert api[-1]["admitted"] == 5  # 4 and the usage request itself


def test_the_list_shows_recent_totals_and_the_peak_day(manager_client, clock, busy, quiet):
    response = manager_client.get("/admin/apikeys/account/?o=1")

    names = [account.name for account in listed(response)]
    week = dict(zip(names, column(response, "week"), strict=True))
    peak = dict(zip(names, column(response, "peak_day"), strict=True))
    assert week["Busy shelter"].startswith("950")
    assert "12 refused" in week["Busy shelter"]
    assert week["Quiet shelter"].startswith("300")
    assert peak == {"Busy shelter": "▲ 85%", "Quiet shelter": "30%"}


def test_near_their_limit_finds_the_upgrade_candidates(manager_client, clock, busy, quiet):
    response = manager_client.get("/admin/apikeys/account/?usage=near-limit")

    assert [account.name for account in listed(response)] == ["Busy shelter"]


def test_the_filter_counts_its_accounts_when_asked(manager_client, clock, busy, quiet):
    response = manager_client.get("/admin/apikeys/account/?_facets=1")

    assert response.status_code == HTTPStatus.OK
    assert "Near their limit (≥ 80% on any of the last 7 days) (1)" in response.content.decode()


def test_the_list_sorts_by_the_peak_share(manager_client, clock, busy, quiet, make_account):
    make_account(name="No traffic")
    index = list(manager_client.get("/admin/apikeys/account/").context["cl"].list_display).index(
        "peak_day"
    )

    response = manager_client.get(f"/admin/apikeys/account/?o=-{index}")

    assert [account.name for account in listed(response)] == [
        "Busy shelter",
        "Quiet shelter",
        "No traffic",
    ]


def test_the_list_costs_the_same_queries_for_one_account_or_many(
    manager_client, clock, busy, quiet, make_account, make_key
):
    manager_client.get("/admin/apikeys/account/")  # the session and permissions are warm
    with CaptureQueriesContext(connection) as two:
        manager_client.get("/admin/apikeys/account/")
    for n in range(5):
        account = make_account(name=f"More {n}")
        make_key(account=account)
        record(first_key(account), 1, 500)

    with CaptureQueriesContext(connection) as seven:
        response = manager_client.get("/admin/apikeys/account/")

    assert len(listed(response)) == 7
    assert len(seven.captured_queries) == len(two.captured_queries)
