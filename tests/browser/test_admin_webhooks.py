"""An account manager looks after an account's webhook endpoints, in a real browser."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from apikeys.models import Plan
from apikeys.services import account_create
from events.models import Event
from tests.browser.conftest import log_in, make_staff, screenshot
from webhooks.models import Delivery, DeliveryState, Endpoint

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def test_an_account_manager_sees_deliveries_rotates_a_secret_and_redelivers(
    page: Page, live_server
):
    make_staff("morgan", "Account managers")
    account = account_create(
        name="Happy Tails Shelter", email="it@happytails.example", plan=Plan.objects.get(code="pro")
    )
    endpoint = Endpoint.objects.create(
        account=account, url="https://hooks.happytails.example/petstore", events=["pet.created"]
    )
    old_secret = endpoint.secret
    now = timezone.now()
    for n, (state, status) in enumerate([("delivered", 204), ("failed", 500)]):
        event = Event.objects.create(type="pet.created", data={"id": n + 1, "name": f"Pet {n}"})
        Delivery.objects.create(
            endpoint=endpoint,
            event=event,
            state=state,
            attempts=1 if state == "delivered" else 10,
            last_attempt_at=now,
            last_status=status,
        )
    base = live_server.url

    log_in(page, base, "morgan")
    page.goto(f"{base}/admin/apikeys/account/{account.pk}/change/")
    inline = page.locator("fieldset", has_text="webhook endpoints")
    expect(inline).to_contain_text("hooks.happytails.example")
    expect(inline).to_contain_text("pet.created")
    screenshot(page, "account-webhooks")

    inline.locator("a.inlinechangelink").click()
    expect(page.locator("#content")).to_contain_text("Recent deliveries")
    expect(page.locator("#content")).to_contain_text("Failed")
    screenshot(page, "endpoint-deliveries")

    page.goto(f"{base}/admin/webhooks/endpoint/")
    page.locator("#result_list tbody tr input.action-select").check()
    page.select_option("select[name=action]", "rotate_secret")
    page.click("button[name=index]")
    message = page.locator(".messagelist")
    endpoint.refresh_from_db()
    expect(message).to_contain_text(endpoint.secret)
    assert endpoint.secret != old_secret

    page.locator("#result_list tbody tr input.action-select").check()
    page.select_option("select[name=action]", "redeliver_failed")
    page.click("button[name=index]")
    expect(page.locator(".messagelist")).to_contain_text("1 delivery(ies) sent again")
    assert Delivery.objects.filter(state=DeliveryState.PENDING).count() == 1

    page.locator("#result_list tbody tr input.action-select").check()
    page.select_option("select[name=action]", "disable")
    page.click("button[name=index]")
    expect(page.locator(".messagelist")).to_contain_text("1 endpoint(s) disabled")
    endpoint.refresh_from_db()
    assert endpoint.enabled is False
