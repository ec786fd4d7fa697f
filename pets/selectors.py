"""Reads of animals for the API: compiled once, rows straight to the API's shape."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from pets.models import Category, Pet
from pets.serializers import PetSerializer
from petstore.prepared import PreparedQuery, Shape

PET = Shape(PetSerializer)
# The versions of what the API shows of animals and of categories (petstore.conditional).
PETS_VERSION = "pets"
CATEGORIES_VERSION = "categories"
# Stand-ins (petstore.prepared): values no request sends.
_NO_ID = -1
_NO_STATUS = "\0status"

_page_of_all = PreparedQuery(
    lambda after: Pet.objects.filter(pk__gt=after).order_by("pk").values_list(*PET.columns),
    after=_NO_ID,
)
_page_by_status = PreparedQuery(
    lambda after, status: (
        Pet.objects.filter(pk__gt=after, status=status).order_by("pk").values_list(*PET.columns)
    ),
    after=_NO_ID,
    status=_NO_STATUS,
)
_one = PreparedQuery(
    lambda pet_id: Pet.objects.filter(pk=pet_id).values_list(*PET.columns), pet_id=_NO_ID
)


def pet_page(
    *,
    after: int,
    limit: int,
    status: str | None = None,
    category_ids: tuple[int, ...] = (),
    name: str | None = None,
) -> list[dict[str, Any]]:
    """Up to ``limit`` animals with ids above ``after``, in id order (one query), of
    ``status``, in any of ``category_ids`` and with ``name`` in theirs, when given."""
    if category_ids or name is not None:
        # The ORM's own way: filtered pages are rarer than the plain listing, whose SQL is
        # compiled once.
        pets = Pet.objects.filter(pk__gt=after)
        if status is not None:
            pets = pets.filter(status=status)
        if category_ids:
            pets = pets.filter(category_id__in=category_ids)
        if name is not None:
            pets = pets.filter(name__icontains=name)
        return PET.rows(list(pets.order_by("pk").values_list(*PET.columns)[:limit]))
    if status is None:
        return PET.rows(_page_of_all.run(limit, after=after))
    return PET.rows(_page_by_status.run(limit, after=after, status=status))


def pet_get(pet_id: int) -> dict[str, Any] | None:
    rows = PET.rows(_one.run(1, pet_id=pet_id))
    return rows[0] if rows else None


def category_list() -> QuerySet[Category]:
    return Category.objects.order_by("pk")


def category_get(category_id: int) -> Category | None:
    return Category.objects.filter(pk=category_id).first()
