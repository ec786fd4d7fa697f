from __future__ import annotations

from functools import cache
from typing import Any

import orjson
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

from events.models import Event, new_event_id
from events.selectors import SHARED_VERSION
from events.types import EventType
from pets import events
from pets.models import Category, Pet, PetStatus, can_change_status
from pets.selectors import PET, PETS_VERSION
from pets.serializers import no_category
from petstore.conditional import changed
from petstore.exceptions import Conflict, InvalidReference


def pet_create(*, name: str, category_id: int, status: str = PetStatus.AVAILABLE) -> Pet:
    """Add an animal to an existing category, and its ``pet.created`` event, atomically: the
    one way in, for the API and the admin alike.

    The INSERT takes the category from its own row (``INSERT … SELECT … WHERE id = %s``), so a
    category that does not exist inserts nothing, and that is how it is found out. On
    PostgreSQL the event is inserted by the same statement (a data-modifying ``WITH``): one
    round trip, atomic on its own, where a transaction block around two INSERTs takes four.
    """
    connection = connections[DEFAULT_DB_ALIAS]
    created_at = timezone.now()
    pet = Pet(name=name, category_id=category_id, status=status, created_at=created_at)
    values = [name, status, connection.ops.adapt_datetimefield_value(created_at), category_id]
    if connection.vendor == "postgresql":
        data = orjson.dumps(PET.of(pet)).decode()
        event = [new_event_id(), EventType.PET_CREATED.value, data, values[2]]
        pet.id = _insert(connection, [*values, *event])
        # Written by SQL of our own, which sends no signal (pets.signals).
        changed(PETS_VERSION, SHARED_VERSION)
    else:
        with transaction.atomic():
            pet.id = _insert(connection, values)
            events.pet_created(pet)
            changed(PETS_VERSION)
    return pet


def _insert(connection: BaseDatabaseWrapper, values: list[Any]) -> int:
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(connection.vendor), values)
        row = cursor.fetchone()
    if row is None:
        raise InvalidReference("categoryId", no_category(values[3]))
    return int(row[0])


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


@cache
def _insert_sql(vendor: str) -> str:
    """The SQL, made once per database vendor."""
    # Written by hand: the ORM has no INSERT … SELECT. The names come from the models.
    quote = connections[DEFAULT_DB_ALIAS].ops.quote_name
    pet, category = Pet._meta, Category._meta
    column = {field.name: str(field.column) for field in pet.concrete_fields}
    inserted = ("name", "category", "status", "created_at")
    columns = ", ".join(quote(column[name]) for name in inserted)
    category_id, pet_id = quote(str(category.pk.column)), quote(column["id"])
    # Only names from the models are formatted in; every value is a parameter.
    insert = (
        f"INSERT INTO {quote(pet.db_table)} ({columns}) "  # noqa: S608
        f"SELECT %s, {category_id}, %s, %s FROM {quote(category.db_table)} "
        f"WHERE {category_id} = %s RETURNING {pet_id}"
    )
    if vendor != "postgresql":
        return insert
    # The event's data is the pet as the API shows it, its id from the INSERT.
    event = {field.name: quote(str(field.column)) for field in Event._meta.concrete_fields}
    return (
        f"WITH new_pet AS ({insert}) "  # noqa: S608
        f"INSERT INTO {quote(Event._meta.db_table)} "
        f"({event['uid']}, {event['type']}, {event['data']}, {event['created_at']}, "
        f"{event['fanned_out']}) "
        f"SELECT %s, %s, %s::jsonb || jsonb_build_object('id', {pet_id}), %s, false "
        f"FROM new_pet RETURNING (SELECT {pet_id} FROM new_pet)"
    )


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
