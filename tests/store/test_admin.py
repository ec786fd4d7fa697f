"""The shelter staff's orders: approve, deliver and cancel move the animal; invalid steps are
refused with a message and change nothing."""

from __future__ import annotations

from datetime import UTC, datetime
from http import HTTPStatus

import pytest

from store import services
from store.models import Order
from tests.admin_pages import form_data, listed, shown_messages

ORDERS = "/admin/store/order/"


@pytest.fixture
def placed(make_account, make_pet) -> Order:
    return services.order_place(account_id=make_account().pk, pet_id=make_pet(name="Rex").pk)


def run(staff_client, action: str, *orders: Order):
    return staff_client.post(
        ORDERS,
        {"action": action, "_selected_action": [order.pk for order in orders], "index": 0},
        follow=True,
    )


def states(order: Order) -> tuple[str, str]:
    """The order's status and its animal's."""
    order.refresh_from_db()
    order.pet.refresh_from_db()
    return order.status, order.pet.status


def test_a_placed_order_is_listed_with_its_animal_on_hold(staff_client, placed):
    page = staff_client.get(ORDERS)

    assert page.status_code == HTTPStatus.OK
    assert listed(page) == [placed]
    assert states(placed) == ("pending", "pending")


def test_approving_keeps_the_animal_on_hold(staff_client, placed):
    response = run(staff_client, "approve", placed)

    assert shown_messages(response) == ["1 order(s) approved."]
    assert states(placed) == ("approved", "pending")


def test_delivering_an_approved_order_sells_the_animal(staff_client, placed):
    run(staff_client, "approve", placed)

    response = run(staff_client, "deliver", placed)

    assert shown_messages(response) == ["1 order(s) delivered."]
    assert states(placed) == ("delivered", "sold")
    assert placed.ship_date is not None
    assert placed.complete


@pytest.mark.parametrize("approved_first", [False, True])
def test_cancelling_makes_the_animal_available_again(staff_client, placed, approved_first):
    if approved_first:
        run(staff_client, "approve", placed)

    response = run(staff_client, "cancel", placed)

    assert shown_messages(response) == ["1 order(s) cancelled."]
    assert states(placed) == ("cancelled", "available")


def test_a_pending_order_cannot_be_delivered(staff_client, placed):
    response = run(staff_client, "deliver", placed)

    assert response.status_code == HTTPStatus.OK
    assert shown_messages(response) == [
        f"Order {placed.pk} is pending and cannot become delivered."
    ]
    assert states(placed) == ("pending", "pending")
    assert placed.ship_date is None


def test_a_delivered_order_cannot_be_cancelled(staff_client, placed):
    run(staff_client, "approve", placed)
    run(staff_client, "deliver", placed)

    response = run(staff_client, "cancel", placed)

    assert shown_messages(response) == [
        f"Order {placed.pk} is delivered and cannot become cancelled."
    ]
    assert states(placed) == ("delivered", "sold")


def test_a_cancelled_order_cannot_be_approved(staff_client, placed):
    run(staff_client, "cancel", placed)

    response = run(staff_client, "approve", placed)

    assert shown_messages(response) == [
        f"Order {placed.pk} is cancelled and cannot become approved."
    ]
    assert states(placed) == ("cancelled", "available")


def test_an_action_on_several_orders_reports_each_refusal(
    staff_client, placed, make_account, make_pet
):
    other = services.order_place(account_id=make_account().pk, pet_id=make_pet(name="Tom").pk)
    run(staff_client, "approve", other)

    response = run(staff_client, "deliver", placed, other)

    assert states(placed) == ("pending", "pending")
    assert states(other) == ("delivered", "sold")
    assert shown_messages(response) == [
        "1 order(s) delivered.",
        f"Order {placed.pk} is pending and cannot become delivered.",
    ]


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


def test_staff_cannot_add_orders_in_the_admin(staff_client, make_pet, make_account):
    pet = make_pet()

    page = staff_client.get(f"{ORDERS}add/")
    posted = staff_client.post(
        f"{ORDERS}add/", {"account": make_account().pk, "pet": pet.pk, "status": "pending"}
    )

    assert page.status_code == posted.status_code == HTTPStatus.FORBIDDEN
    assert not Order.objects.exists()
    assert 'href="/admin/store/order/add/"' not in staff_client.get(ORDERS).content.decode()
