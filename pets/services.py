from __future__ import annotations

from functools import cache

from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, transaction
from django.utils import timezone

from pets.models import Category, Pet, PetStatus, can_change_status
from petstore.exceptions import Conflict, InvalidReference


def pet_create(*, name: str, category_id: int, status: str = PetStatus.AVAILABLE) -> Pet:
    """Add an animal to an existing category, in one statement that checks the category too.

    The INSERT takes the category from its own row (``INSERT … SELECT … WHERE id = %s``), so a
    category that does not exist inserts nothing, and that is how it is found out: one round
    trip where a check and then an INSERT took two. Atomic on its own, with no transaction
    block (and its round trips) around it.
    """
    connection = connections[DEFAULT_DB_ALIAS]
    created_at = timezone.now()
    with connection.cursor() as cursor:
        cursor.execute(
            _insert_sql(connection.vendor),
            [name, status, connection.ops.adapt_datetimefield_value(created_at), category_id],
        )
        row = cursor.fetchone()
    if row is None:
        raise InvalidReference("categoryId", no_category(category_id))
    return Pet(id=row[0], name=name, category_id=category_id, status=status, created_at=created_at)


def category_create(*, name: str, description: str = "") -> Category:
    """Add a kind of animal; a name taken already, in any case, is a Conflict."""
    if Category.objects.filter(name__iexact=name).exists():
        raise Conflict(f"There is already a category named {name!r}.")
    try:
        with transaction.atomic():
            return Category.objects.create(name=name, description=description)
    except IntegrityError:
        # Another request added the same name in between.
        raise Conflict(f"There is already a category named {name!r}.") from None


def no_category(category_id: int) -> str:
    return f"There is no category {category_id}."


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
    return (
        f"INSERT INTO {quote(pet.db_table)} ({columns}) "  # noqa: S608
        f"SELECT %s, {category_id}, %s, %s FROM {quote(category.db_table)} "
        f"WHERE {category_id} = %s RETURNING {pet_id}"
    )


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
