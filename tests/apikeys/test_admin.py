"""The account managers' admin: roles, accounts and plans, issuing, revoking and rotating keys,
suspending accounts and lifting bans, each checked through the API the keys are for."""

from __future__ import annotations

import logging
import re
from datetime import timedelta
from http import HTTPStatus

import pytest
from django.contrib.admin.models import ADDITION, CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.utils import timezone

from apikeys.models import Account, ApiKey, Ban, Plan
from apikeys.services import apikey_revoke
from apikeys.windows import WINDOWS
from tests.admin_pages import column, form_data, listed, shown_messages
from tests.assertions import assert_error

KEY_RE = re.compile(r"petstore_live_[0-9A-Za-z]{33}")
ACCOUNTS = "/admin/apikeys/account/"
KEYS = "/admin/apikeys/apikey/"
BANS = "/admin/apikeys/ban/"


def api_call(client, raw: str):
    return client.get("/v1/pets", headers={"Authorization": f"Bearer {raw}"})


def issue_url(account) -> str:
    return f"{ACCOUNTS}{account.pk}/issue-key/"


def change_url(account) -> str:
    return f"{ACCOUNTS}{account.pk}/change/"


def keys_in(response) -> set[str]:
    return set(KEY_RE.findall(response.content.decode()))


def issue(manager_client, account, **fields):
    """Open the issue form and submit it; returns (the form page, the result)."""
    form = manager_client.get(issue_url(account))
    assert form.status_code == HTTPStatus.OK
    data = {"name": "", "expires_in_days": "", **fields}
    data["one_time_token"] = form.context["one_time_token"]
    return form, manager_client.post(issue_url(account), data)


def log_messages(obj) -> list[str]:
    """The admin history of ``obj``, oldest first."""
    entries = LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(obj), object_id=str(obj.pk)
    ).order_by("id")
    return [entry.get_change_message() for entry in entries]


def run_action(admin_client, url: str, action: str, objects, **extra):
    return admin_client.post(
        url,
        {"action": action, "_selected_action": [o.pk for o in objects], "index": 0, **extra},
    )


# Roles ------------------------------------------------------------------------------------


@pytest.mark.parametrize("url", [ACCOUNTS, KEYS, BANS, "/admin/apikeys/plan/"])
def test_account_managers_open_accounts_keys_bans_and_plans(manager_client, url):
    assert manager_client.get(url).status_code == HTTPStatus.OK


@pytest.mark.parametrize(
    "url", ["/admin/pets/pet/", "/admin/pets/category/", "/admin/store/order/"]
)
def test_account_managers_cannot_open_animals_or_orders(manager_client, url):
    assert manager_client.get(url).status_code == HTTPStatus.FORBIDDEN


def test_account_managers_cannot_add_an_animal(manager_client, dog):
    response = manager_client.post(
        "/admin/pets/pet/add/", {"name": "Rex", "category": dog.pk, "status": "available"}
    )

    assert response.status_code == HTTPStatus.FORBIDDEN
    assert not dog.pets.exists()


@pytest.mark.parametrize("url", [KEYS, ACCOUNTS, BANS, "/admin/apikeys/plan/"])
def test_shelter_staff_cannot_see_keys_or_accounts(staff_client, url):
    assert staff_client.get(url).status_code == HTTPStatus.FORBIDDEN


def test_shelter_staff_cannot_issue_a_key(staff_client, key_row):
    account = key_row.account

    page = staff_client.get(issue_url(account))
    posted = staff_client.post(issue_url(account), {"name": "sneaky"})

    assert page.status_code == posted.status_code == HTTPStatus.FOUND
    assert not keys_in(page)
    assert not keys_in(posted)
    assert list(account.api_keys.all()) == [key_row]


def test_each_role_sees_only_its_own_models_on_the_index(staff_client, manager_client):
    def apps(admin_client) -> set[str]:
        return {app["app_label"] for app in admin_client.get("/admin/").context["app_list"]}

    # Account managers also look after the accounts' webhook endpoints and deliveries, and
    # read the trail of their work.
    assert apps(manager_client) == {"apikeys", "webhooks", "audit"}
    assert apps(staff_client) == {"pets", "store"}


# Accounts and plans -----------------------------------------------------------------------


def test_the_account_list_shows_plan_keys_and_live_usage(
    manager_client, client, auth, key_row, make_key, clock
):
    make_key(account=key_row.account)  # a second key of the same account
    for _ in range(3):
        assert client.get("/v1/pets", headers=auth).status_code == HTTPStatus.OK

    page = manager_client.get(ACCOUNTS)

    assert column(page, "plan") == ["Free"]
    assert column(page, "key_count") == ["2"]
    assert column(page, "requests_this_minute") == ["3"]
    assert column(page, "requests_today") == ["3"]
    assert column(page, "refused_today") == ["0"]
    (last_use,) = column(page, "last_used")
    assert last_use not in ("", "-")


def test_the_account_list_counts_refused_requests(
    manager_client, client, make_account, make_key, clock
):
    account = make_account(plan="enterprise", per_minute=2)
    raw = make_key(account=account)
    statuses = [api_call(client, raw).status_code for _ in range(5)]

    page = manager_client.get(ACCOUNTS)

    assert statuses == [HTTPStatus.OK] * 2 + [HTTPStatus.TOO_MANY_REQUESTS] * 3
    assert column(page, "plan") == ["Enterprise"]
    assert column(page, "requests_this_minute") == ["2"]
    assert column(page, "requests_today") == ["2"]
    assert column(page, "refused_today") == ["3"]


def test_the_account_page_shows_usage_against_the_plan(
    manager_client, client, auth, key_row, clock
):
    client.get("/v1/pets", headers=auth)

    page = manager_client.get(change_url(key_row.account))

    shown = page.content.decode()
    assert "1 of 60 this minute, " in shown
    assert ", 1 of 1000 today, 0 refused today" in shown


def test_accounts_are_searched_by_name_and_email(manager_client, make_account):
    tails = make_account(name="Waggy Tails")
    paws = make_account(name="Paws")
    paws.email = "ops@paws.example"
    paws.save()

    assert listed(manager_client.get(ACCOUNTS, {"q": "waggy"})) == [tails]
    assert listed(manager_client.get(ACCOUNTS, {"q": "ops@paws"})) == [paws]


def test_accounts_are_filtered_by_plan(manager_client, make_account):
    make_account(name="Free one")
    pro = make_account(name="Pro one", plan="pro")

    page = manager_client.get(ACCOUNTS, {"plan__id__exact": pro.plan_id})

    assert listed(page) == [pro]


def test_a_plan_change_is_logged_and_limits_the_very_next_request(
    manager_client, client, auth, key_row
):
    account = key_row.account
    assert client.get("/v1/pets", headers=auth)["X-RateLimit-Limit"] == "60"
    form = manager_client.get(change_url(account))

    response = manager_client.post(
        change_url(account), form_data(form, plan=Plan.objects.get(code="pro").pk)
    )

    assert response.status_code == HTTPStatus.FOUND
    account.refresh_from_db()
    assert account.plan.code == "pro"
    entry = LogEntry.objects.get(object_id=str(account.pk), action_flag=CHANGE)
    assert "Plan" in entry.get_change_message()
    assert client.get("/v1/pets", headers=auth)["X-RateLimit-Limit"] == "300"


def test_enterprise_takes_its_custom_limits(manager_client, client, auth, key_row):
    account = key_row.account
    form = manager_client.get(change_url(account))

    manager_client.post(
        change_url(account),
        form_data(
            form,
            plan=Plan.objects.get(code="enterprise").pk,
            **({w.custom_field: 100 for w in WINDOWS} | {"custom_requests_per_minute": 5}),
        ),
    )

    account.refresh_from_db()
    assert (account.plan.code, account.limits.per_minute) == ("enterprise", 5)
    assert client.get("/v1/pets", headers=auth)["X-RateLimit-Limit"] == "5"


def test_enterprise_without_custom_limits_is_a_form_error(manager_client, client, auth, key_row):
    account = key_row.account
    form = manager_client.get(change_url(account))

    response = manager_client.post(
        change_url(account), form_data(form, plan=Plan.objects.get(code="enterprise").pk)
    )

    assert response.status_code == HTTPStatus.OK
    errors = response.context["adminform"].form.errors
    for window in WINDOWS:
        assert "An Enterprise account needs a limit in every window." in errors[window.custom_field]
    account.refresh_from_db()
    assert account.plan.code == "free"
    assert not LogEntry.objects.exists()
    assert client.get("/v1/pets", headers=auth)["X-RateLimit-Limit"] == "60"


@pytest.mark.parametrize(("per_minute", "per_day"), [(0, 100), (5, "")])
def test_enterprise_limits_must_both_be_positive(manager_client, key_row, per_minute, per_day):
    account = key_row.account
    form = manager_client.get(change_url(account))

    response = manager_client.post(
        change_url(account),
        form_data(
            form,
            plan=Plan.objects.get(code="enterprise").pk,
            custom_requests_per_minute=per_minute,
            custom_requests_per_day=per_day,
        ),
    )

    assert response.status_code == HTTPStatus.OK
    assert response.context["adminform"].form.errors
    account.refresh_from_db()
    assert (account.plan.code, account.custom_requests_per_minute) == ("free", None)


def test_account_managers_open_an_account(manager_client):
    form = manager_client.get(f"{ACCOUNTS}add/")

    response = manager_client.post(
        f"{ACCOUNTS}add/",
        form_data(
            form, name="Paws", email="ops@paws.example", plan=Plan.objects.get(code="business").pk
        ),
    )

    assert response.status_code == HTTPStatus.FOUND
    account = Account.objects.get()
    assert (account.name, account.plan.code, account.limits.per_minute) == (
        "Paws",
        "business",
        1000,
    )


def test_suspending_refuses_the_accounts_keys_and_reactivating_restores_them(
    manager_client, client, auth, key_row
):
    account = key_row.account

    suspended = run_action(manager_client, ACCOUNTS, "suspend", [account])

    assert suspended.status_code == HTTPStatus.FOUND
    assert_error(client.get("/v1/pets", headers=auth), HTTPStatus.UNAUTHORIZED, "unauthorized")

    run_action(manager_client, ACCOUNTS, "reactivate", [account])

    assert client.get("/v1/pets", headers=auth).status_code == HTTPStatus.OK
    assert log_messages(account) == ["Suspended", "Reactivated"]


# Issuing a key ----------------------------------------------------------------------------


def test_an_issued_key_is_shown_once_and_answers_at_the_plans_limit(
    manager_client, client, make_account
):
    account = make_account(plan="pro")

    _, response = issue(manager_client, account, name="web app")

    assert response.status_code == HTTPStatus.OK
    assert "no-store" in response["Cache-Control"].split(", ")
    (raw,) = keys_in(response)
    assert "will not be shown again" in response.content.decode()
    key = ApiKey.objects.get(account=account)
    assert (key.name, key.expires_at) == ("web app", None)
    api = api_call(client, raw)
    assert api.status_code == HTTPStatus.OK
    assert api["X-RateLimit-Limit"] == str(account.limits.per_minute) == "300"


def test_an_issued_key_may_expire(manager_client, make_account):
    account = make_account()

    issue(manager_client, account, expires_in_days=7)

    expires_at = ApiKey.objects.get(account=account).expires_at
    assert expires_at is not None
    assert abs(expires_at - (timezone.now() + timedelta(days=7))) < timedelta(minutes=1)


@pytest.mark.parametrize("days", [0, 3651, 10**7])
def test_an_expiry_out_of_range_is_a_form_error(manager_client, make_account, days):
    account = make_account()

    _, response = issue(manager_client, account, expires_in_days=days)

    assert response.status_code == HTTPStatus.OK
    assert response.context["form"].errors["expires_in_days"]
    assert not keys_in(response)
    assert not account.api_keys.exists()


def test_reloading_the_result_shows_no_key_and_issues_no_other(manager_client, make_account):
    account = make_account()
    form, first = issue(manager_client, account, name="web app")
    (raw,) = keys_in(first)

    # A reload re-posts the very same form.
    again = manager_client.post(
        issue_url(account), {"name": "web app", "one_time_token": form.context["one_time_token"]}
    )

    assert again.status_code == HTTPStatus.FOUND
    assert again["Location"] == change_url(account)
    assert not keys_in(again)
    assert account.api_keys.count() == 1
    page = manager_client.get(again["Location"])
    assert raw not in page.content.decode()
    assert not keys_in(page)
    assert any("already used" in message for message in shown_messages(page))


def test_a_form_without_its_token_issues_nothing(manager_client, make_account):
    account = make_account()
    manager_client.get(issue_url(account))

    response = manager_client.post(issue_url(account), {"name": "forged", "one_time_token": "x"})

    assert response.status_code == HTTPStatus.FOUND
    assert not keys_in(response)
    assert not account.api_keys.exists()


def test_the_key_list_and_account_page_show_only_the_prefix(manager_client, make_account):
    account = make_account()
    _, response = issue(manager_client, account)
    (raw,) = keys_in(response)
    prefix = ApiKey.objects.get(account=account).prefix

    for page in (manager_client.get(KEYS), manager_client.get(change_url(account))):
        html = page.content.decode()
        assert prefix in html
        assert raw not in html
        assert not keys_in(page)


def test_an_issued_key_is_kept_nowhere_but_on_its_page(
    manager_client, client, make_account, caplog, request_log
):
    caplog.set_level(logging.DEBUG)
    account = make_account()
    form, response = issue(manager_client, account, name="web app")
    (raw,) = keys_in(response)
    reload = manager_client.post(
        issue_url(account), {"name": "web app", "one_time_token": form.context["one_time_token"]}
    )
    after = manager_client.get(reload["Location"])
    api_call(client, raw)

    for session in Session.objects.all():
        assert raw not in repr(session.get_decoded())
        assert raw not in session.session_data
    assert raw not in repr(dict(manager_client.session.items()))
    for page in (form, response, reload, after):
        assert raw not in page.cookies.output()
    assert raw not in manager_client.cookies.output()
    assert raw not in " ".join(shown_messages(response) + shown_messages(after))
    entries = list(LogEntry.objects.values_list("object_repr", "change_message"))
    assert entries
    assert raw not in repr(entries)
    assert raw not in caplog.text
    assert request_log
    assert not [record for record in request_log if raw in record.getMessage()]


def test_issuing_a_key_is_recorded_in_the_history(manager_client, account_manager, make_account):
    account = make_account()

    issue(manager_client, account, name="web app")

    key = ApiKey.objects.get(account=account)
    entry = LogEntry.objects.get(
        content_type=ContentType.objects.get_for_model(ApiKey), object_id=str(key.pk)
    )
    assert (entry.user, entry.action_flag) == (account_manager, ADDITION)
    assert entry.get_change_message() == f"Issued key {key.prefix}…"


# Revoking ---------------------------------------------------------------------------------


def test_revoking_asks_for_confirmation_first(manager_client, client, auth, key_row):
    response = run_action(manager_client, KEYS, "revoke", [key_row])

    assert response.status_code == HTTPStatus.OK
    assert "admin/apikeys/confirm_keys.html" in [t.name for t in response.templates]
    assert f"{key_row.prefix}…" in response.content.decode()
    key_row.refresh_from_db()
    assert key_row.revoked_at is None
    assert not LogEntry.objects.exists()
    assert client.get("/v1/pets", headers=auth).status_code == HTTPStatus.OK


def test_a_confirmed_revocation_refuses_the_very_next_request(
    manager_client, account_manager, client, auth, key_row
):
    assert client.get("/v1/pets", headers=auth).status_code == HTTPStatus.OK
    run_action(manager_client, KEYS, "revoke", [key_row])

    response = manager_client.post(
        KEYS, {"action": "revoke", "_selected_action": [key_row.pk], "confirm": "yes"}
    )

    assert response.status_code == HTTPStatus.FOUND
    key_row.refresh_from_db()
    assert key_row.revoked_by == account_manager
    assert timezone.now() - key_row.revoked_at < timedelta(minutes=1)
    assert log_messages(key_row) == ["Revoked"]
    refused = client.get("/v1/pets", headers=auth)
    assert_error(refused, HTTPStatus.UNAUTHORIZED, "unauthorized")
    assert refused.json()["message"] == "This API key has been revoked."


def test_revoking_only_touches_the_selected_keys(manager_client, client, make_key, key_row):
    other = make_key(account=key_row.account)

    manager_client.post(
        KEYS, {"action": "revoke", "_selected_action": [key_row.pk], "confirm": "yes"}
    )

    assert api_call(client, other).status_code == HTTPStatus.OK
    assert ApiKey.objects.filter(revoked_at__isnull=False).get() == key_row


# Rotating ---------------------------------------------------------------------------------


def confirm_rotation(manager_client, key_row, grace_hours=None):
    page = run_action(manager_client, KEYS, "rotate", [key_row])
    form = page.context["form"]
    data = {
        "action": "rotate",
        "_selected_action": [key_row.pk],
        "confirm": "yes",
        "one_time_token": page.context["one_time_token"],
        "grace_hours": form["grace_hours"].value() if grace_hours is None else grace_hours,
    }
    return page, data, manager_client.post(KEYS, data)


def test_the_rotation_form_offers_a_day_of_grace_and_changes_nothing(manager_client, key_row):
    page = run_action(manager_client, KEYS, "rotate", [key_row])

    assert page.status_code == HTTPStatus.OK
    assert page.context["form"]["grace_hours"].value() == 24
    assert 'name="grace_hours"' in page.content.decode()
    assert ApiKey.objects.count() == 1
    key_row.refresh_from_db()
    assert key_row.expires_at is None


def test_rotating_shows_a_replacement_once_and_keeps_the_old_key_for_the_grace_period(
    manager_client, client, api_key, key_row
):
    _, _, response = confirm_rotation(manager_client, key_row)

    assert response.status_code == HTTPStatus.OK
    assert "no-store" in response["Cache-Control"].split(", ")
    (new_raw,) = keys_in(response)
    assert new_raw != api_key
    key_row.refresh_from_db()
    assert abs(key_row.expires_at - (timezone.now() + timedelta(hours=24))) < timedelta(minutes=1)
    assert api_call(client, api_key).status_code == HTTPStatus.OK
    assert api_call(client, new_raw).status_code == HTTPStatus.OK
    new_key = ApiKey.objects.exclude(pk=key_row.pk).get()
    assert (new_key.account, new_key.expires_at) == (key_row.account, None)
    assert log_messages(key_row) == [f"Rotated: replaced by {new_key.prefix}…"]
    assert log_messages(new_key) == [f"Issued to replace {key_row.prefix}…"]


def test_reposting_a_rotation_rotates_nothing_more(manager_client, key_row):
    _, data, first = confirm_rotation(manager_client, key_row)
    (new_raw,) = keys_in(first)

    again = manager_client.post(KEYS, data)

    assert again.status_code == HTTPStatus.FOUND
    assert not keys_in(again)
    assert ApiKey.objects.count() == 2
    page = manager_client.get(again["Location"])
    assert new_raw not in page.content.decode()
    assert "That form was already used; nothing was rotated." in shown_messages(page)


def test_rotating_without_grace_retires_the_old_key_at_once(
    manager_client, client, api_key, key_row
):
    _, _, response = confirm_rotation(manager_client, key_row, grace_hours=0)
    (new_raw,) = keys_in(response)

    assert_error(api_call(client, api_key), HTTPStatus.UNAUTHORIZED, "unauthorized")
    assert api_call(client, new_raw).status_code == HTTPStatus.OK


def test_a_revoked_key_is_not_rotated(manager_client, client, api_key, key_row):
    apikey_revoke(api_key=key_row)

    _, _, response = confirm_rotation(manager_client, key_row)

    assert not keys_in(response)
    assert ApiKey.objects.count() == 1
    page = manager_client.get(KEYS)
    assert shown_messages(page) == ["1 revoked key(s) skipped: issue a new key instead."]
    assert_error(api_call(client, api_key), HTTPStatus.UNAUTHORIZED, "unauthorized")


# Bans -------------------------------------------------------------------------------------


@pytest.fixture
def banned(client, api_key, key_row, clock) -> Ban:
    """A real ban: the Free plan's 60 requests, then 10 more within the same (frozen) minute."""
    clock.now = clock.now // 60 * 60  # the start of a minute, held still
    for _ in range(60):
        assert api_call(client, api_key).status_code == HTTPStatus.OK
    refused = [api_call(client, api_key) for _ in range(10)]
    assert refused[-1].json()["code"] == "temporarily_banned"
    return Ban.objects.get(api_key=key_row)


def test_a_ban_is_listed_among_the_current_ones(manager_client, banned):
    assert listed(manager_client.get(BANS, {"state": "current"})) == [banned]
    assert listed(manager_client.get(BANS, {"state": "past"})) == []


def test_lifting_a_ban_is_recorded_and_the_key_works_again(
    manager_client, account_manager, client, api_key, banned, clock
):
    response = run_action(manager_client, BANS, "lift", [banned])

    assert response.status_code == HTTPStatus.FOUND
    banned.refresh_from_db()
    assert banned.lifted_by == account_manager
    assert timezone.now() - banned.lifted_at < timedelta(minutes=1)
    assert log_messages(banned) == ["Lifted"]
    assert listed(manager_client.get(BANS, {"state": "current"})) == []
    assert listed(manager_client.get(BANS, {"state": "past"})) == [banned]
    clock.advance(60)  # the minute that was used up is over; the ban alone would still hold
    assert api_call(client, api_key).status_code == HTTPStatus.OK


def test_nobody_deletes_a_ban_lifting_is_the_way(admin_client, manager_client, banned):
    for desk in (admin_client, manager_client):
        page = desk.get(f"{BANS}{banned.pk}/change/")
        asked = desk.get(f"{BANS}{banned.pk}/delete/")
        posted = desk.post(f"{BANS}{banned.pk}/delete/", {"post": "yes"})
        bulk = run_action(desk, BANS, "delete_selected", [banned], post="yes")
        actions = [
            name for name, _ in desk.get(BANS).context["action_form"].fields["action"].choices
        ]

        assert page.status_code == HTTPStatus.OK
        assert "deletelink" not in page.content.decode()
        assert asked.status_code == posted.status_code == HTTPStatus.FORBIDDEN
        assert bulk.status_code == HTTPStatus.FOUND  # "No action selected": an unknown action
        assert actions == ["", "lift"]
    assert Ban.objects.filter(pk=banned.pk).exists()


def test_a_ban_that_is_not_lifted_still_holds_in_the_next_minute(client, api_key, banned, clock):
    clock.advance(60)

    assert_error(api_call(client, api_key), HTTPStatus.TOO_MANY_REQUESTS, "temporarily_banned")
