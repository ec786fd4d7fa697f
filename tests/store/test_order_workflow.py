"""Each step of an adoption, each refusal, and where it leaves the animal."""

from __future__ import annotations

import pytest

from petstore.errors import Conflict
from store import services
from store.models import Order


@pytest.fixture
def account(make_account):
    return make_account()


@pytest.fixture
def placed(account, make_pet):
    return services.order_place(account_id=account.pk, pet_id=make_pet().pk)


def pet_status(order: Order) -> str:
    order.pet.refresh_from_db()
    return order.pet.status


def test_placing_an_order_puts_the_animal_on_hold(placed):
    assert (placed.status, pet_status(placed), placed.quantity) == ("pending", "pending", 1)
    assert placed.complete is False


@pytest.mark.parametrize("status", ["pending", "sold"])
def test_an_animal_that_is_not_available_cannot_be_ordered(account, make_pet, status):
    pet = make_pet(status=status)

    with pytest.raises(Conflict):
        services.order_place(account_id=account.pk, pet_id=pet.pk)

    assert not Order.objects.exists()


def test_approving_keeps_the_animal_on_hold(placed):
    order = services.order_approve(order_id=placed.pk)

    assert (order.status, pet_status(order)) == ("approved", "pending")


def test_delivering_sells_the_animal_and_completes_the_order(placed):
    services.order_approve(order_id=placed.pk)

    order = services.order_deliver(order_id=placed.pk)

    assert (order.status, pet_status(order), order.complete) == ("delivered", "sold", True)
    assert order.ship_date is not None


def test_a_pending_order_cannot_be_delivered_before_approval(placed):
    with pytest.raises(Conflict):
        services.order_deliver(order_id=placed.pk)

    placed.refresh_from_db()
    assert (placed.status, pet_status(placed)) == ("pending", "pending")


@pytest.mark.parametrize("approve_first", [False, True])
def test_cancelling_makes_the_animal_available_again(placed, approve_first):
    if approve_first:
        services.order_approve(order_id=placed.pk)

    order = services.order_cancel(order_id=placed.pk)

    assert (order.status, pet_status(order)) == ("cancelled", "available")


def test_a_delivered_order_cannot_be_cancelled(placed):
    services.order_approve(order_id=placed.pk)
    services.order_deliver(order_id=placed.pk)

    with pytest.raises(Conflict):
        services.order_cancel(order_id=placed.pk)

    placed.refresh_from_db()
    assert (placed.status, pet_status(placed)) == ("delivered", "sold")


def test_a_cancelled_order_cannot_be_cancelled_or_approved_again(placed):
    services.order_cancel(order_id=placed.pk)

    with pytest.raises(Conflict):
        services.order_cancel(order_id=placed.pk)
    with pytest.raises(Conflict):
        services.order_approve(order_id=placed.pk)
    assert pet_status(placed) == "available"


def test_a_cancelled_animal_can_be_ordered_again(placed, make_account):
    services.order_cancel(order_id=placed.pk)

    again = services.order_place(account_id=make_account(name="Other").pk, pet_id=placed.pet_id)

    assert pet_status(again) == "pending"
