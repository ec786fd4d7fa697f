from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from pets import events
from pets.insert import pet_insert
from pets.models import Category, Pet, can_change_status
from petstore.exceptions import Conflict


def pet_create(**fields: Any) -> Pet:
    """Add an animal to an existing category, and its ``pet.created`` event, atomically: the
    one way in, for the API and the admin alike. ``fields``: the model's, as the API's
    NewPetSerializer gives them."""
    return pet_add(Pet(**fields))


def pet_add(pet: Pet) -> Pet:
    """Save a new animal and its event: the API's way in, and the admin's."""
    pet_insert(pet)
    return pet


def category_create(*, name: str, description: str = "") -> Category:
    """Add a kind of animal; a name taken already, in any case, is a Conflict."""
    if Category.objects.filter(name__iexact=name).exists():
        raise Conflict(f"There is already a category named {name!r}.")
    try:
        return category_add(Category(name=name, description=description))
    except IntegrityError:
        # Another request added the same name in between.
        raise Conflict(f"There is already a category named {name!r}.") from None


@transaction.atomic
def category_add(category: Category) -> Category:
    """Save a new category and its ``category.created`` event: the API's way in, and the
    admin's."""
    category.save()
    events.category_created(category)
    return category


def pet_move(pet: Pet, status: str) -> Pet:
    """Move a row-locked animal to ``status`` along an allowed transition: the one place an
    animal's status changes, for the adoption workflow and for staff alike."""
    if not can_change_status(pet.status, status):
        raise Conflict(f"{pet.name} is {pet.status} and cannot become {status}.")
    if pet.status != status:
        previous, pet.status = pet.status, status
        pet.save(update_fields=["status"])
        events.pet_status_changed(pet, previous)
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
