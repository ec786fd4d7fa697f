"""Reads of animals for the API: compiled once, rows straight to the API's shape."""

from __future__ import annotations

from collections.abc import Mapping
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

_one = PreparedQuery(
    lambda pet_id: Pet.objects.filter(pk=pet_id).values_list(*PET.columns), pet_id=_NO_ID
)


def _pets(after: int, filters: Mapping[str, Any]) -> QuerySet[Pet, tuple[Any, ...]]:
    return Pet.objects.filter(pk__gt=after, **filters).order_by("pk").values_list(*PET.columns)


def _compiled(**stand_ins: Any) -> PreparedQuery:
    """A page of the listing, compiled once, narrowed by the lookups ``stand_ins`` names."""
    return PreparedQuery(lambda after, **filters: _pets(after, filters), after=_NO_ID, **stand_ins)


# The pages compiled once, by the filters they take (PetListFilter's lookups): the plain
# listing and one status, the common ones. Any other filters are the ORM's to compile, rarer
# than these.
_COMPILED = {frozenset(): _compiled(), frozenset({"status"}): _compiled(status=_NO_STATUS)}


def pet_page(*, after: int, limit: int, filters: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Up to ``limit`` animals with ids above ``after``, in id order (one query), narrowed by
    ``filters`` (ORM lookups: PetListFilter's)."""
    compiled = _COMPILED.get(frozenset(filters))
    if compiled is None:
        return PET.rows(list(_pets(after, filters)[:limit]))
    return PET.rows(compiled.run(limit, after=after, **filters))


def pet_get(pet_id: int) -> dict[str, Any] | None:
    rows = PET.rows(_one.run(1, pet_id=pet_id))
    return rows[0] if rows else None


def category_list() -> QuerySet[Category]:
    return Category.objects.order_by("pk")


def category_get(category_id: int) -> Category | None:
    return Category.objects.filter(pk=category_id).first()
