from __future__ import annotations

from django.db import transaction

from pets.models import Pet, PetStatus, can_change_status
from petstore.exceptions import Conflict


def pet_create(*, name: str, category_id: int, status: str = PetStatus.AVAILABLE) -> Pet:
    # One INSERT, atomic on its own: no transaction block (and its round trips) needed.
    return Pet.objects.create(name=name, category_id=category_id, status=status)


def pet_move(pet: Pet, status: str) -> Pet:
    """Move a row-locked animal to ``status`` along an allowed transition: the one place an
    animal's status changes, for the adoption workflow and for staff alike."""
    if not can_change_status(pet.status, status):
        raise Conflict(f"{pet.name} is {pet.status} and cannot become {status}.")
    if pet.status != status:
        pet.status = status
        pet.save(update_fields=["status"])
    return pet


def pet_status_refusal(pet: Pet, status: str) -> str | None:
    """Why staff may not move ``pet`` to ``status`` by hand, or None when they may: besides the
    transitions, an animal held by an open adoption order moves only through that order."""
    if not can_change_status(pet.status, status):
        return f"{pet.name} cannot go from {pet.status} to {status}."
    if pet.status != status and pet.orders.open().exists():
        return f"{pet.name} has an open adoption order: approve, deliver or cancel it instead."
    return None


@transaction.atomic
def pet_change_status(*, pet_id: int, status: str) -> Pet:
    """A status change made by staff, along the allowed transitions only."""
    pet = Pet.objects.select_for_update().get(pk=pet_id)
    if (refusal := pet_status_refusal(pet, status)) is not None:
        raise Conflict(refusal)
    return pet_move(pet, status)
