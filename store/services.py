"""The adoption workflow. Each step is one transaction that locks the rows it moves, so two
concurrent requests can never both win: the second waits, then sees the first one's result."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from pets.models import Pet, PetStatus
from pets.services import pet_move
from petstore.exceptions import Conflict, InvalidReference
from store import events
from store.models import Order, OrderStatus


def _locked_order(order_id: int) -> Order:
    return Order.objects.select_for_update().get(pk=order_id)


def _move_pet(pet_id: int, status: str) -> Pet:
    return pet_move(Pet.objects.select_for_update().get(pk=pet_id), status)


def _move_order(order: Order, status: str) -> None:
    if not order.can_become(status):
        raise Conflict(
            f"Order {order.pk} for {order.pet.name} is {order.status} and cannot become {status}."
        )
    order.status = status


def _save_order(order: Order, *fields: str) -> None:
    """Save the order's move, with ``fields``, and write its event."""
    order.save(update_fields=["status", *fields, "updated_at"])
    events.order_moved(order)


@transaction.atomic
def order_place(*, account_id: int, pet_id: int) -> Order:
    """Ask to adopt an available animal, which is then on hold (pending) for this order."""
    pet = Pet.objects.select_for_update().filter(pk=pet_id).first()
    if pet is None:
        raise InvalidReference("petId", f"There is no pet {pet_id}.")
    if pet.status != PetStatus.AVAILABLE:
        raise Conflict(f"{pet.name} is {pet.status}, not available for adoption.")
    pet_move(pet, PetStatus.PENDING)
    order = Order.objects.create(account_id=account_id, pet=pet)
    events.order_moved(order)
    return order


@transaction.atomic
def order_approve(*, order_id: int) -> Order:
    order = _locked_order(order_id)
    _move_order(order, OrderStatus.APPROVED)
    _save_order(order)
    return order


@transaction.atomic
def order_deliver(*, order_id: int, ship_date: datetime | None = None) -> Order:
    """Hand the animal over: the order is complete and the animal sold."""
    order = _locked_order(order_id)
    _move_order(order, OrderStatus.DELIVERED)
    _move_pet(order.pet_id, PetStatus.SOLD)
    order.ship_date = ship_date or order.ship_date or timezone.now()
    _save_order(order, "ship_date")
    return order


@transaction.atomic
def order_cancel(*, order_id: int, account_id: int | None = None) -> Order:
    """Call the adoption off; the animal is available again. ``account_id``: only its own."""
    orders = Order.objects.select_for_update()
    if account_id is not None:
        orders = orders.filter(account_id=account_id)
    order = orders.filter(pk=order_id).first()
    if order is None:
        raise Order.DoesNotExist(order_id)
    _move_order(order, OrderStatus.CANCELLED)
    _move_pet(order.pet_id, PetStatus.AVAILABLE)
    _save_order(order)
    return order
