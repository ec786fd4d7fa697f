"""An account's plan, limits, suspension and bans in the trail: through its admin page, the
bulk actions, the plan's page, and the rate limiter itself."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from django.utils import timezone

from apikeys.models import Ban, Plan
from tests.admin_pages import form_data
from tests.audit.conftest import MANAGER_ADDRESS, every, iso, only, run_action

ACCOUNTS = "/admin/apikeys/account/"

pytestmark = pytest.mark.django_db


def change_account(desk, account, **changes):
    url = f"{ACCOUNTS}{account.pk}/change/"
    return desk.post(url, form_data(desk.get(url), **changes))


def test_a_plan_changed_on_the_account_page_is_recorded(manager_desk, make_account):
    account = make_account(name="Paws")

    response = change_account(manager_desk, account, plan=Plan.objects.get(code="pro").pk)

    assert response.status_code == HTTPStatus.FOUND
    entry = only("account.plan_changed")
    assert (entry.actor, entry.address) == ("manager", MANAGER_ADDRESS)
    assert (entry.target_type, entry.target_id, entry.target_repr) == (
        "apikeys.account",
        str(account.pk),
        "Paws",
    )
    assert entry.changes == {"plan": ["free", "pro"]}


def test_custom_limits_changed_on_the_account_page_are_recorded(manager_desk, make_account):
    account = make_account(plan="enterprise", per_minute=5)

    change_account(manager_desk, account, custom_requests_per_minute=50)

    entry = only("account.limits_changed")
    assert (entry.actor, entry.address, entry.target_id) == (
        "manager",
        MANAGER_ADDRESS,
        str(account.pk),
    )
    assert entry.changes == {"custom_requests_per_minute": [5, 50]}


def test_suspending_and_reactivating_in_bulk_records_each_account(
    manager_desk, make_account, clock
):
    paws, claws = make_account(name="Paws"), make_account(name="Claws")

    run_action(manager_desk, ACCOUNTS, "suspend", [paws, claws])
    run_action(manager_desk, ACCOUNTS, "reactivate", [paws])

    suspended = every("account.suspended")
    assert [(e.actor, e.address, e.target_repr) for e in suspended] == [
        ("manager", MANAGER_ADDRESS, "Paws"),
        ("manager", MANAGER_ADDRESS, "Claws"),
    ]
    assert suspended[0].changes == {"suspended_at": [None, iso(timezone.now())]}
    reactivated = only("account.reactivated")
    assert (reactivated.actor, reactivated.target_id) == ("manager", str(paws.pk))
    assert reactivated.changes == {"suspended_at": [iso(timezone.now()), None]}


def test_a_plans_limits_changed_on_its_page_are_recorded(manager_desk):
    pro = Plan.objects.get(code="pro")
    url = f"/admin/apikeys/plan/{pro.pk}/change/"
    before = pro.requests_per_minute
    assert before is not None

    manager_desk.post(url, form_data(manager_desk.get(url), requests_per_minute=before + 1))

    entry = only("plan.limits_changed")
    assert (entry.actor, entry.address, entry.target_repr) == ("manager", MANAGER_ADDRESS, "Pro")
    assert entry.changes == {"requests_per_minute": [before, before + 1]}


@pytest.fixture
def banned(client, api_key, key_row, clock) -> Ban:
    """A real ban: the Free plan's 60 requests, then 10 more within the same (frozen) minute."""
    clock.now = clock.now // 60 * 60
    headers = {"Authorization": f"Bearer {api_key}"}
    for _ in range(70):
        client.get("/v1/pets", headers=headers)
    return Ban.objects.get(api_key=key_row)


def test_a_ban_put_in_force_by_the_limiter_is_recorded_as_the_systems(banned):
    entry = only("ban.recorded")

    assert (entry.actor, entry.address, entry.target_id) == ("system", "", str(banned.pk))
    assert entry.changes == {
        "started_at": [None, iso(banned.started_at)],
        "ends_at": [None, iso(banned.ends_at)],
    }


def test_a_ban_lifted_by_the_bulk_action_is_recorded(manager_desk, banned):
    run_action(manager_desk, "/admin/apikeys/ban/", "lift", [banned])

    banned.refresh_from_db()
    entry = only("ban.lifted")
    assert (entry.actor, entry.address, entry.target_id) == (
        "manager",
        MANAGER_ADDRESS,
        str(banned.pk),
    )
    assert entry.changes == {"lifted_at": [None, iso(banned.lifted_at)]}
