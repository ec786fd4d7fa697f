"""What staff do all day, in a real browser against a live server."""

from __future__ import annotations

import re
import urllib.error
import urllib.request

import pytest
from django.contrib.admin.models import LogEntry
from playwright.sync_api import Page, expect

from apikeys.models import ApiKey, Plan
from apikeys.services import account_create, apikey_issue
from pets.models import Category, Pet
from store.services import order_place
from tests.browser.conftest import log_in, make_staff, screenshot

# A live server answers from its own thread and connection: no test transaction can wrap it.
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

KEY_PATTERN = re.compile(r"^petstore_live_[0-9A-Za-z]{33}$")


def api_get(base_url: str, path: str, key: str) -> tuple[int, dict[str, str]]:
    request = urllib.request.Request(
        f"{base_url}{path}", headers={"Authorization": f"Bearer {key}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers)


def test_an_account_manager_issues_a_key_that_works_then_revokes_it(page: Page, live_server):
    make_staff("morgan", "Account managers")
    account = account_create(
        name="Happy Tails Shelter", email="it@happytails.example", plan=Plan.objects.get(code="pro")
    )
    account_create(name="Paws & Co", email="dev@paws.example", plan=Plan.objects.get(code="free"))
    base = live_server.url

    log_in(page, base, "morgan")
    page.goto(f"{base}/admin/apikeys/account/")
    expect(page.locator("#result_list")).to_contain_text("Happy Tails Shelter")

    page.goto(f"{base}/admin/apikeys/account/{account.pk}/change/")
    page.click("text=Issue API key")
    page.fill("#id_name", "Adoption widget")
    page.click("input[name=issue]")
    field = page.locator("[data-testid=api-key]")
    expect(field).to_be_visible()
    page.click("button.copy-key")
    expect(page.locator(".copied")).to_be_visible()
    key = page.evaluate("navigator.clipboard.readText()")
    assert KEY_PATTERN.match(key), key
    assert key == field.input_value()
    screenshot(page, "key-issued")

    status, headers = api_get(base, "/v1/pets", key)
    assert status == 200
    assert headers["X-RateLimit-Limit"] == "300"
    page.goto(f"{base}/admin/apikeys/account/")
    expect(page.locator("#result_list tbody tr", has_text="Happy Tails")).to_contain_text("Pro")

    page.goto(f"{base}/admin/apikeys/apikey/")
    prefix = ApiKey.objects.get().prefix
    row = page.locator("#result_list tbody tr", has_text=prefix)
    row.locator("input.action-select").check()
    page.select_option("select[name=action]", "revoke")
    page.click("button[name=index]")
    expect(page.locator("#content")).to_contain_text("Revoke these keys?")
    page.click("input[type=submit][value='Yes, revoke']")
    expect(page.locator(".messagelist")).to_contain_text("1 key(s) revoked")

    status, _ = api_get(base, "/v1/pets", key)
    assert status == 401


def test_an_account_manager_rotates_then_revokes_a_key_from_its_accounts_page(
    page: Page, live_server
):
    morgan = make_staff("morgan", "Account managers")
    account = account_create(
        name="The Greater Manchester and Cheshire Regional Animal Rescue Association",
        email="it@gmcrara.example",
        plan=Plan.objects.get(code="pro"),
    )
    old = apikey_issue(account=account, name="Adoption widget on the partner website, production")
    apikey_issue(account=account, name="Staff rota app")
    base = live_server.url
    account_page = f"{base}/admin/apikeys/account/{account.pk}/change/"
    assert api_get(base, "/v1/pets", old.raw)[0] == 200

    log_in(page, base, "morgan")
    page.goto(account_page)
    screenshot(page, "account-keys")
    row = page.locator(".inline-related tbody tr", has_text=old.api_key.prefix)
    expect(row).to_contain_text("active")
    row.get_by_role("link", name="Rotate").click()

    # The confirmation: which key, the grace period, and the way back to the account.
    expect(page.locator("h1")).to_have_text(f"Rotate key {old.api_key.prefix}…?")
    expect(page.locator(".breadcrumbs a", has_text="Accounts")).to_be_visible()
    expect(page.locator(".breadcrumbs a", has_text="Greater Manchester")).to_have_attribute(
        "href", f"/admin/apikeys/account/{account.pk}/change/"
    )
    expect(page.locator("#id_grace_hours")).to_have_value("24")
    page.click("input[type=submit][value='Yes, rotate']")

    expect(page.locator(".messagelist")).to_contain_text(f"Key {old.api_key.prefix}… rotated")
    new_raw = page.locator("[data-testid=api-key]").input_value()
    assert KEY_PATTERN.match(new_raw), new_raw
    expect(page.locator(".breadcrumbs a", has_text="Greater Manchester")).to_be_visible()
    new_key = ApiKey.objects.get(prefix=new_raw[: len(old.api_key.prefix)])
    assert api_get(base, "/v1/pets", new_raw)[0] == 200
    assert api_get(base, "/v1/pets", old.raw)[0] == 200  # within its grace period
    page.click("text=I have copied it — back")

    row = page.locator(".inline-related tbody tr", has_text=old.api_key.prefix)
    row.get_by_role("link", name="Revoke").click()
    expect(page.locator("h1")).to_have_text(f"Revoke key {old.api_key.prefix}…?")
    expect(page.locator("#content")).to_contain_text("This cannot be undone")
    page.click("input[type=submit][value='Yes, revoke']")

    expect(page).to_have_url(account_page)
    expect(page.locator(".messagelist")).to_contain_text(f"Key {old.api_key.prefix}… revoked")
    expect(row).to_contain_text("revoked")
    expect(row.get_by_role("link", name="Revoke")).to_have_count(0)
    expect(row.get_by_role("link", name="Rotate")).to_have_count(0)
    status, _ = api_get(base, "/v1/pets", old.raw)
    assert status == 401
    assert api_get(base, "/v1/pets", new_raw)[0] == 200

    # The key's history, as the admin shows it and as it is stored.
    page.goto(f"{base}/admin/apikeys/apikey/{old.api_key.pk}/history/")
    history = page.locator("#change-history")
    expect(history).to_contain_text(f"Rotated: replaced by {new_key.prefix}…")
    expect(history).to_contain_text("Revoked")
    entries = LogEntry.objects.filter(
        content_type__model="apikey", object_id=str(old.api_key.pk)
    ).order_by("id")
    assert [(e.user_id, e.get_change_message()) for e in entries] == [
        (morgan.pk, f"Rotated: replaced by {new_key.prefix}…"),
        (morgan.pk, "Revoked"),
    ]


def test_a_shelter_administrator_adds_an_animal_and_changes_its_status(page: Page, live_server):
    make_staff("sam", "Shelter staff")
    dog = Category.objects.create(name="Dog", description="Dogs")
    base = live_server.url

    log_in(page, base, "sam")
    page.goto(f"{base}/admin/pets/pet/add/")
    page.fill("#id_name", "Biscuit")
    page.select_option("#id_category", str(dog.pk))
    page.select_option("#id_status", "available")
    page.click("input[name=_save]")
    expect(page.locator(".messagelist")).to_contain_text("was added successfully")
    pet = Pet.objects.get(name="Biscuit")
    assert pet.status == "available"

    page.goto(f"{base}/admin/pets/pet/{pet.pk}/change/")
    page.select_option("#id_status", "pending")
    page.click("input[name=_save]")
    expect(page.locator(".messagelist")).to_contain_text("was changed successfully")
    pet.refresh_from_db()
    assert pet.status == "pending"

    # A step the transitions do not allow is a form error, not a change.
    Pet.objects.filter(pk=pet.pk).update(status="sold")
    page.goto(f"{base}/admin/pets/pet/{pet.pk}/change/")
    page.select_option("#id_status", "available")
    page.click("input[name=_save]")
    expect(page.locator(".errorlist")).to_contain_text("cannot go from sold to available")
    pet.refresh_from_db()
    assert pet.status == "sold"


def test_shelter_staff_move_an_order_from_its_page_and_confirm_what_cannot_be_undone(
    page: Page, live_server
):
    make_staff("sam", "Shelter staff")
    dog = Category.objects.create(name="Dog", description="Dogs")
    free = Plan.objects.get(code="free")
    ziggy, rex = (
        order_place(
            account_id=account_create(name=account, plan=free).pk,
            pet_id=Pet.objects.create(name=pet, category=dog, status="available").pk,
        )
        for account, pet in [("Happy Tails Shelter", "Ziggy"), ("Paws & Co", "Rex")]
    )
    base = live_server.url
    order_page = f"{base}/admin/store/order/{ziggy.pk}/change/"
    moves = page.locator(".order-moves input[type=submit]")

    def offered() -> list[str]:
        return moves.evaluate_all("(buttons) => buttons.map((button) => button.value)")

    log_in(page, base, "sam")
    page.goto(order_page)
    assert offered() == ["Approve", "Cancel order…"]
    page.click(".order-moves input[value=Approve]")

    expect(page).to_have_url(order_page)
    expect(page.locator(".messagelist")).to_have_text(f"Order {ziggy.pk} for Ziggy approved.")
    expect(page.locator(".field-status .readonly")).to_have_text("Approved")
    assert offered() == ["Deliver…", "Cancel order…"]

    # Delivering asks first, on a page of its own; "No" goes back and changes nothing.
    page.click(".order-moves input[value='Deliver…']")
    expect(page.locator("h1")).to_have_text(f"Deliver order {ziggy.pk} for Ziggy?")
    expect(page.locator("#content")).to_contain_text("This cannot be undone.")
    expect(page.locator(".confirm-order")).to_contain_text("Happy Tails Shelter")
    page.click("text=No, go back")
    expect(page).to_have_url(order_page)
    expect(page.locator(".field-status .readonly")).to_have_text("Approved")

    page.click(".order-moves input[value='Deliver…']")
    page.click("input[type=submit][value='Yes, deliver']")
    expect(page).to_have_url(order_page)
    expect(page.locator(".messagelist")).to_have_text(f"Order {ziggy.pk} for Ziggy delivered.")
    expect(page.locator(".field-status .readonly")).to_have_text("Delivered")
    expect(moves).to_have_count(0)
    assert Pet.objects.get(name="Ziggy").status == "sold"

    # From the list, for several orders: the same question, then one message naming each.
    page.goto(f"{base}/admin/store/order/")
    page.locator("#action-toggle").check()
    page.select_option("select[name=action]", "cancel")
    page.click("button[name=index]")
    expect(page.locator("h1")).to_have_text("Cancel these 2 orders?")
    expect(page.locator(".confirm-order", has_text="Ziggy")).to_contain_text(
        "delivered: cannot be cancelled, stays as it is"
    )
    assert Pet.objects.get(name="Rex").status == "pending"
    page.click("input[type=submit][value='Yes, cancel']")
    expect(page.locator(".messagelist li.success")).to_have_text(
        f"Order {rex.pk} for Rex cancelled."
    )
    expect(page.locator(".messagelist li.error")).to_have_text(
        f"Order {ziggy.pk} for Ziggy is delivered and cannot become cancelled."
    )
    assert Pet.objects.get(name="Rex").status == "available"
