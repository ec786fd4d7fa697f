"""The shelter staff's orders: approve, deliver and cancel move the animal; invalid steps are
refused with a message and change nothing. Deliver and cancel ask first, from the list and from
an order's page alike, and every message names the order and its animal."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from http import HTTPStatus

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission
from django.db import connection
from django.test.utils import CaptureQueriesContext

from store import services
from store.models import Order
from tests.admin_pages import form_data, listed, shown_messages
from tests.conftest import signed_in

ORDERS = "/admin/store/order/"


@pytest.fixture
def placed(make_account, make_pet) -> Order:
    return services.order_place(account_id=make_account().pk, pet_id=make_pet(name="Rex").pk)


@pytest.fixture
def approved(make_account, make_pet) -> Order:
    order = services.order_place(account_id=make_account().pk, pet_id=make_pet(name="Tom").pk)
    return services.order_approve(order_id=order.pk)


def run(staff_client, action: str, *orders: Order, confirm: bool = True):
    """The list's ``action`` on ``orders``, answered Yes on its confirmation page if it asks
    (``confirm``)."""
    data = {"action": action, "_selected_action": [order.pk for order in orders], "index": 0}
    return staff_client.post(
        ORDERS, {**data, **({"confirm": "yes"} if confirm else {})}, follow=True
    )


def states(order: Order) -> tuple[str, str]:
    """The order's status and its animal's."""
    order.refresh_from_db()
    order.pet.refresh_from_db()
    return order.status, order.pet.status


def moves_offered(page) -> list[tuple[str, str]]:
    """The move buttons on an order's page: each one's label and the URL it posts to."""
    return re.findall(
        r'<input type="submit" class="order-move" value="([^"]+)" formaction="([^"]+)">',
        page.content.decode(),
    )


def test_a_placed_order_is_listed_with_its_animal_on_hold(staff_client, placed):
    page = staff_client.get(ORDERS)

    assert page.status_code == HTTPStatus.OK
    assert listed(page) == [placed]
    assert states(placed) == ("pending", "pending")


def test_approving_keeps_the_animal_on_hold_and_names_the_order(staff_client, placed):
    response = run(staff_client, "approve", placed, confirm=False)

    assert shown_messages(response) == [f"Order {placed.pk} for Rex approved."]
    assert states(placed) == ("approved", "pending")


@pytest.mark.parametrize("action", ["deliver", "cancel"])
def test_deliver_and_cancel_ask_first_and_change_nothing_until_confirmed(
    staff_client, approved, action
):
    page = run(staff_client, action, approved, confirm=False)

    assert page.status_code == HTTPStatus.OK
    assert next(t.name for t in page.templates) == "admin/store/order/confirm_move.html"
    content = page.content.decode()
    assert f"{action.capitalize()} order {approved.pk} for Tom?" in content
    assert "This cannot be undone." in content
    assert f'value="Yes, {action}"' in content
    assert f'name="action" value="{action}"' in content
    assert f'name="_selected_action" value="{approved.pk}"' in content
    assert states(approved) == ("approved", "pending")


def test_delivering_an_approved_order_sells_the_animal(staff_client, approved):
    response = run(staff_client, "deliver", approved)

    assert shown_messages(response) == [f"Order {approved.pk} for Tom delivered."]
    assert states(approved) == ("delivered", "sold")
    assert approved.ship_date is not None
    assert approved.complete


@pytest.mark.parametrize("approved_first", [False, True])
def test_cancelling_makes_the_animal_available_again(staff_client, placed, approved_first):
    if approved_first:
        run(staff_client, "approve", placed)

    response = run(staff_client, "cancel", placed)

    assert shown_messages(response) == [f"Order {placed.pk} for Rex cancelled."]
    assert states(placed) == ("cancelled", "available")


def test_a_pending_order_cannot_be_delivered(staff_client, placed):
    response = run(staff_client, "deliver", placed)

    assert response.status_code == HTTPStatus.OK
    assert shown_messages(response) == [
        f"Order {placed.pk} for Rex is pending and cannot become delivered."
    ]
    assert states(placed) == ("pending", "pending")
    assert placed.ship_date is None


def test_a_delivered_order_cannot_be_cancelled(staff_client, approved):
    run(staff_client, "deliver", approved)

    response = run(staff_client, "cancel", approved)

    assert shown_messages(response) == [
        f"Order {approved.pk} for Tom is delivered and cannot become cancelled."
    ]
    assert states(approved) == ("delivered", "sold")


def test_a_cancelled_order_cannot_be_approved(staff_client, placed):
    run(staff_client, "cancel", placed)

    response = run(staff_client, "approve", placed)

    assert shown_messages(response) == [
        f"Order {placed.pk} for Rex is cancelled and cannot become approved."
    ]
    assert states(placed) == ("cancelled", "available")


def test_an_action_on_several_orders_names_each_and_reports_each_refusal(
    staff_client, placed, approved, make_account, make_pet
):
    third = services.order_approve(
        order_id=services.order_place(
            account_id=make_account().pk, pet_id=make_pet(name="Ziggy").pk
        ).pk
    )

    page = run(staff_client, "deliver", placed, approved, third, confirm=False)
    assert "Deliver these 3 orders?" in page.content.decode()
    assert "pending: cannot be delivered, stays as it is" in page.content.decode()
    response = run(staff_client, "deliver", placed, approved, third)

    assert states(placed) == ("pending", "pending")
    assert states(approved) == ("delivered", "sold")
    assert states(third) == ("delivered", "sold")
    assert shown_messages(response) == [
        f"Orders {approved.pk} (Tom), {third.pk} (Ziggy) delivered.",
        f"Order {placed.pk} for Rex is pending and cannot become delivered.",
    ]


def test_an_orders_page_offers_the_moves_its_status_allows(staff_client, placed, approved):
    assert moves_offered(staff_client.get(f"{ORDERS}{placed.pk}/change/")) == [
        ("Approve", f"{ORDERS}{placed.pk}/approve/"),
        ("Cancel order…", f"{ORDERS}{placed.pk}/cancel/"),
    ]
    assert moves_offered(staff_client.get(f"{ORDERS}{approved.pk}/change/")) == [
        ("Deliver…", f"{ORDERS}{approved.pk}/deliver/"),
        ("Cancel order…", f"{ORDERS}{approved.pk}/cancel/"),
    ]
    services.order_deliver(order_id=approved.pk)
    assert moves_offered(staff_client.get(f"{ORDERS}{approved.pk}/change/")) == []


def test_a_member_who_may_only_view_orders_is_offered_no_move(django_user_model, client, placed):
    viewer = django_user_model.objects.create_user(username="viewer", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_order"))
    signed_in(client, viewer)

    page = client.get(f"{ORDERS}{placed.pk}/change/")
    posted = client.post(f"{ORDERS}{placed.pk}/approve/")

    assert page.status_code == HTTPStatus.OK
    assert moves_offered(page) == []
    assert posted.status_code == HTTPStatus.FORBIDDEN
    assert states(placed) == ("pending", "pending")


def test_approving_from_the_orders_page_returns_to_it(staff_client, placed):
    response = staff_client.post(f"{ORDERS}{placed.pk}/approve/", follow=True)

    assert response.redirect_chain == [(f"{ORDERS}{placed.pk}/change/", HTTPStatus.FOUND)]
    assert shown_messages(response) == [f"Order {placed.pk} for Rex approved."]
    assert states(placed) == ("approved", "pending")
    entry = LogEntry.objects.get(object_id=str(placed.pk), content_type__model="order")
    assert entry.get_change_message() == "Approved"


@pytest.mark.parametrize(
    ("move", "done", "after"),
    [("deliver", "delivered", "sold"), ("cancel", "cancelled", "available")],
)
def test_delivering_or_cancelling_from_the_orders_page_asks_first(
    staff_client, approved, move, done, after
):
    url = f"{ORDERS}{approved.pk}/{move}/"

    asked = staff_client.post(url)
    assert asked.status_code == HTTPStatus.OK
    assert f"{move.capitalize()} order {approved.pk} for Tom?" in asked.content.decode()
    assert (
        f'href="{ORDERS}{approved.pk}/change/" class="button cancel-link"' in asked.content.decode()
    )
    assert states(approved) == ("approved", "pending")

    response = staff_client.post(url, {"confirm": "yes"}, follow=True)
    assert response.redirect_chain == [(f"{ORDERS}{approved.pk}/change/", HTTPStatus.FOUND)]
    assert shown_messages(response) == [f"Order {approved.pk} for Tom {done}."]
    assert states(approved) == (done, after)


def test_a_confirmation_for_an_order_that_cannot_move_offers_only_the_way_back(
    staff_client, placed
):
    page = staff_client.get(f"{ORDERS}{placed.pk}/deliver/")

    assert page.status_code == HTTPStatus.OK
    assert "pending: cannot be delivered" in page.content.decode()
    assert 'value="Yes, deliver"' not in page.content.decode()
    assert states(placed) == ("pending", "pending")


def test_staff_set_the_hand_over_date_but_not_the_status_by_the_form(staff_client, placed):
    url = f"{ORDERS}{placed.pk}/change/"
    form = staff_client.get(url)

    response = staff_client.post(
        url,
        form_data(form, ship_date_0="2026-12-24", ship_date_1="10:00:00", status="delivered"),
    )

    assert response.status_code == HTTPStatus.FOUND
    placed.refresh_from_db()
    assert placed.ship_date == datetime(2026, 12, 24, 10, tzinfo=UTC)
    assert states(placed) == ("pending", "pending")


def test_saving_the_hand_over_date_writes_it_alone(staff_client, placed):
    url = f"{ORDERS}{placed.pk}/change/"
    form = staff_client.get(url)

    with CaptureQueriesContext(connection) as queries:
        response = staff_client.post(
            url, form_data(form, ship_date_0="2026-12-24", ship_date_1="10:00:00")
        )

    # The status moves only through the services: the page's copy of it is never written back.
    updates = [q["sql"] for q in queries if q["sql"].startswith('UPDATE "store_order"')]
    assert response.status_code == HTTPStatus.FOUND
    assert len(updates) == 1
    assert re.findall(r'"(\w+)" = ', updates[0].split(" WHERE ")[0]) == [
        "ship_date",
        "updated_at",
    ]


def test_not_even_a_superuser_deletes_an_order_cancel_is_the_way(admin_client, placed):
    page = admin_client.post(f"{ORDERS}{placed.pk}/delete/", {"post": "yes"})
    chosen = {"action": "delete_selected", "_selected_action": [placed.pk], "post": "yes"}
    listed_page = admin_client.post(ORDERS, {**chosen, "index": 0}, follow=True)

    assert page.status_code == HTTPStatus.FORBIDDEN
    assert "delete_selected" not in listed_page.content.decode()
    assert states(placed) == ("pending", "pending")


def test_staff_cannot_add_orders_in_the_admin(staff_client, make_pet, make_account):
    pet = make_pet()

    page = staff_client.get(f"{ORDERS}add/")
    posted = staff_client.post(
        f"{ORDERS}add/", {"account": make_account().pk, "pet": pet.pk, "status": "pending"}
    )

    assert page.status_code == posted.status_code == HTTPStatus.FORBIDDEN
    assert not Order.objects.exists()
    assert 'href="/admin/store/order/add/"' not in staff_client.get(ORDERS).content.decode()
