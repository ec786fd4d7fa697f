"""Every place that reports the windows reports one added as a newcomer adds it (the quarter
hour of ``settings``): its migration, the limiter and its headers, GET /v1/rate_limit, a 304's
give-back, the usage roll-up, history, CSV and GET /v1/usage, the admin, createapikey and the
document. Run only under those settings, by tests/apikeys/test_a_new_window.py."""

from __future__ import annotations

import csv
import io
from http import HTTPStatus
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from apikeys import keys
from apikeys.limiter import account_usage
from apikeys.models import Account, ApiKey, DailyUsage, Plan
from apikeys.usage import usage_rollup
from apikeys.windows import WINDOWS
from tests.admin_pages import column
from tests.apikeys.new_window.apikeys_migrations import LAST
from tests.apikeys.new_window.settings import QUARTER
from tests.conftest import ROOMY_LIMIT

BEFORE_THE_WINDOW = ("apikeys", LAST)

pytestmark = pytest.mark.django_db


def bearer(raw: str, **headers: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {raw}", **headers}


def test_the_table_has_the_window_and_its_migration_is_complete():
    assert QUARTER in WINDOWS
    call_command("makemigrations", "--check", "--dry-run", stdout=StringIO())


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_migration_fills_the_window_for_the_plans_and_accounts_before_it(client, make_key):
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE_THE_WINDOW])
    before = executor.loader.project_state([BEFORE_THE_WINDOW]).apps
    plan = before.get_model("apikeys", "Plan").objects.get(code="enterprise")
    # Every window's limit but the new one's: the minute's and the day's, any other roomy.
    limits = {w.custom_field: ROOMY_LIMIT for w in WINDOWS if w != QUARTER}
    limits |= {"custom_requests_per_minute": 5, "custom_requests_per_day": 200}
    made = before.get_model("apikeys", "Account").objects.create(
        name="Old Shelter", plan=plan, **limits
    )

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    # The most the minute and the day already let through in its length: nothing changes.
    account = Account.objects.get(pk=made.pk)
    assert getattr(account, QUARTER.custom_field) == min(5 * 15, 200)
    plans = {p["code"]: p for p in Plan.objects.values("code", *(w.plan_field for w in WINDOWS))}
    free = plans["free"]
    assert free[QUARTER.plan_field] == min(
        free["requests_per_minute"] * 15, free["requests_per_day"]
    )
    assert plans["enterprise"][QUARTER.plan_field] is None
    response = client.get("/v1/pets", headers=bearer(make_key(account)))
    assert response.status_code == HTTPStatus.OK
    assert '"quarter_hour";q=75;w=900' in response["RateLimit-Policy"]


def test_the_limiter_counts_the_window_and_the_headers_name_it(client, make_key, clock):
    key = make_key(plan="enterprise", per_quarter_hour=2)

    statuses = [client.get("/v1/pets", headers=bearer(key)).status_code for _ in range(3)]
    refused = client.get("/v1/pets", headers=bearer(key))

    assert statuses == [HTTPStatus.OK, HTTPStatus.OK, HTTPStatus.TOO_MANY_REQUESTS]
    assert refused["RateLimit"].startswith('"quarter_hour";r=0;')
    assert int(refused["Retry-After"]) == 900 - int(clock.now) % 900
    assert refused["RateLimit-Policy"] == ", ".join(
        f'"{w.name}";q={2 if w == QUARTER else ROOMY_LIMIT};w={w.seconds}' for w in WINDOWS
    )


def test_get_rate_limit_reads_the_window(client, make_key):
    key = make_key(plan="enterprise", per_quarter_hour=50)
    client.get("/v1/pets", headers=bearer(key))

    windows = client.get("/v1/rate_limit", headers=bearer(key)).json()["windows"]

    assert [w["name"] for w in windows] == [w.name for w in WINDOWS]
    (quarter,) = [w for w in windows if w["name"] == "quarter_hour"]
    assert (quarter["limit"], quarter["used"], quarter["seconds"]) == (50, 1, 900)


def test_a_304_is_given_back_to_the_window_as_its_row_says(client, make_key, make_pet, clock):
    key = make_key(plan="enterprise")
    account_id = ApiKey.objects.get().account_id
    make_pet()
    first = client.get("/v1/pets", headers=bearer(key))
    used = account_usage(account_id)

    again = client.get("/v1/pets", headers=bearer(key, **{"If-None-Match": first["ETag"]}))

    assert again.status_code == HTTPStatus.NOT_MODIFIED
    after = account_usage(account_id)
    # The minute counts a 304; the quarter (counts_304=False) and the day do not.
    assert (after.this_minute, after.this_quarter_hour, after.today) == (
        used.this_minute + 1,
        used.this_quarter_hour,
        used.today,
    )


def test_the_usage_history_csv_and_api_keep_the_windows_limit(
    client, manager_client, make_key, clock
):
    key = make_key(plan="enterprise", per_quarter_hour=70)
    account = ApiKey.objects.get().account
    client.get("/v1/pets", headers=bearer(key))

    live = client.get("/v1/usage?days=1", headers=bearer(key)).json()
    usage_rollup()
    rolled_up = client.get("/v1/usage?days=1", headers=bearer(key)).json()
    exported = manager_client.get(f"/admin/apikeys/account/{account.pk}/usage.csv")

    assert live[-1]["perQuarterHour"] == rolled_up[-1]["perQuarterHour"] == 70
    assert DailyUsage.objects.get().limits["quarter_hour"] == 70
    lines = list(csv.reader(io.StringIO(exported.content.decode())))
    assert lines[0][5:] == [w.per for w in WINDOWS]
    assert dict(zip(lines[0], lines[-1], strict=True))["per_quarter_hour"] == "70"


def test_the_admin_shows_and_takes_the_window(client, manager_client, make_account, make_key):
    account = make_account(plan="enterprise", per_quarter_hour=40)
    client.get("/v1/pets", headers=bearer(make_key(account)))

    listed = manager_client.get("/admin/apikeys/account/")
    page = manager_client.get(f"/admin/apikeys/account/{account.pk}/change/").content.decode()
    plans = manager_client.get("/admin/apikeys/plan/")

    assert column(listed, "requests_this_quarter_hour") == ["1"]
    assert "1 of 40 this quarter_hour" in page
    assert 'name="custom_requests_per_quarter_hour"' in page
    assert column(plans, "requests_per_quarter_hour") == ["900", "4500", "15000", "-"]


def test_createapikey_takes_the_window(client):
    out = StringIO()
    chosen = {w.name: 99 for w in WINDOWS} | {"quarter_hour": 30}
    limits = [part for name, limit in chosen.items() for part in (f"--per-{name}", str(limit))]

    call_command("createapikey", "--plan", "enterprise", *limits, stdout=out)

    raw = out.getvalue().strip().splitlines()[-1]
    found = ApiKey.objects.for_digest(keys.digest(raw))
    assert found is not None
    assert found.account.limits.by_name() == chosen
    without = [part for part in limits if part not in ("--per-quarter_hour", "30")]
    with pytest.raises(Exception, match="--per-quarter_hour"):
        call_command("createapikey", "--plan", "enterprise", *without)


def test_the_document_names_the_window(client):
    document = client.get("/v1/openapi.json").json()
    schemas = document["components"]["schemas"]

    assert schemas["WindowName"]["enum"] == [w.name for w in WINDOWS]
    assert "quarter_hour" in schemas["WindowName"]["enum"]
    assert "perQuarterHour" in schemas["UsageDay"]["properties"]
    assert "the quarter_hour" in (document["paths"]["/rate_limit"]["get"]["description"])
