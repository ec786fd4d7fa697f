"""The one way a new animal is written: its row and its ``pet.created`` event, by statements
built once from the models and the API's shape of a pet, so that no column is named here.

The ORM writes the two rows in a transaction block: four round trips, and 0.92 M
instructions more a create than this (docs/performance.md). Here the animal's INSERT takes its
category from the category's own row (``INSERT … SELECT … WHERE id = %s``), so that a category
that does not exist inserts nothing; on PostgreSQL the event's INSERT is chained to it by a
data-modifying ``WITH``, one statement, atomic on its own. Other databases have no such
``WITH``: there the same two INSERTs run one after the other in a transaction.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, models, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.fields import NOT_PROVIDED

from events.models import Event
from events.selectors import SHARED_VERSION
from events.types import EventType
from pets.models import Category, Pet
from pets.selectors import PET, PETS_VERSION
from pets.serializers import no_category
from petstore.conditional import changed
from petstore.exceptions import InvalidReference
from petstore.renderers import JSONRenderer

# The foreign key read from its own row: its absence is how a wrong categoryId is found out.
_CATEGORY = Pet._meta.get_field("category")
_DATA = Event._meta.get_field("data")
_render = JSONRenderer().render


def _written(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    """The columns an INSERT of ``model`` writes, as the ORM's would: all but the generated
    key, and those the database fills in itself (``db_default``)."""
    return [
        field
        for field in model._meta.concrete_fields
        if field is not model._meta.auto_field
        and not field.generated
        and field.db_default is NOT_PROVIDED
    ]


_PET_FIELDS = _written(Pet)
# The event's values beside its data (the pet as the API shows it) and the model's defaults
# (its id, its time); a column with neither is left out, NULL as the ORM would write it.
_EVENT_GIVEN = {"type": EventType.PET_CREATED.value}
_EVENT_FIELDS = [
    field
    for field in _written(Event)
    if field is _DATA or field.attname in _EVENT_GIVEN or field.has_default()
]
# What the database gives the animal (its id), and where the API's shape shows it.
_RETURNED = Pet._meta.db_returning_fields
_SHOWN = {column: name for name, column in zip(PET.names, PET.columns, strict=True)}


def pet_insert(pet: Pet) -> None:
    """Write ``pet`` (unsaved) and its ``pet.created`` event, atomically; ``pet`` gets what
    the database gave it (its id). A category that does not exist is an InvalidReference."""
    connection = connections[DEFAULT_DB_ALIAS]
    vendor = connection.vendor
    pet_values = _pet_params(_values(pet, _PET_FIELDS, connection))
    if vendor == "postgresql":
        values = [*pet_values, *_event_values(pet, connection)]
        _got(pet, _run(connection, _statement(vendor), values))
    else:
        with transaction.atomic():
            _got(pet, _run(connection, _pet_sql(vendor), pet_values))
            # The pet as the API shows it, which its id is now part of.
            _run(connection, _statement(vendor), _event_values(pet, connection))
    # Written by SQL of our own, which sends no signal: what pets.signals and event_record
    # would have said, in one call (one round trip to Redis).
    changed(PETS_VERSION, SHARED_VERSION)


def _values(
    instance: models.Model, fields: list[models.Field[Any, Any]], connection: BaseDatabaseWrapper
) -> list[Any]:
    # pre_save as the ORM calls it on an INSERT: auto_now_add is filled in, on the instance too.
    return [field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields]


def _event_values(pet: Pet, connection: BaseDatabaseWrapper) -> list[Any]:
    # Without an Event instance, whose making costs more than the rest of this together.
    # The data as the API's answer renders it, which the event promises to repeat.
    data = _render(PET.of(pet)).decode()
    return [
        data
        if field is _DATA
        else field.get_db_prep_save(
            _EVENT_GIVEN[field.attname] if field.attname in _EVENT_GIVEN else field.get_default(),
            connection,
        )
        for field in _EVENT_FIELDS
    ]


def _pet_params(values: list[Any]) -> list[Any]:
    """The animal's values in its INSERT's order: its category's id last, in the WHERE."""
    at = _PET_FIELDS.index(_CATEGORY)
    return [*values[:at], *values[at + 1 :], values[at]]


def _run(connection: BaseDatabaseWrapper, sql: str, values: list[Any]) -> tuple[Any, ...] | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        row = cursor.fetchone()
    return None if row is None else tuple(row)


def _got(pet: Pet, row: tuple[Any, ...] | None) -> None:
    if row is None:  # the category's row was not there to insert from
        raise InvalidReference("categoryId", no_category(pet.category_id))
    for field, value in zip(_RETURNED, row, strict=True):
        setattr(pet, field.attname, value)


def _quoted(connection: BaseDatabaseWrapper, fields: list[models.Field[Any, Any]]) -> str:
    return ", ".join(connection.ops.quote_name(str(field.column)) for field in fields)


@cache
def _pet_sql(vendor: str) -> str:
    """The animal's INSERT: every value a parameter, but its category's id, which is read from
    the category's row."""
    connection = connections[DEFAULT_DB_ALIAS]
    quote = connection.ops.quote_name
    category_id = quote(str(Category._meta.pk.column))
    selected = ", ".join(category_id if field is _CATEGORY else "%s" for field in _PET_FIELDS)
    # Only names from the models are formatted in; every value is a parameter.
    return (
        f"INSERT INTO {quote(Pet._meta.db_table)} ({_quoted(connection, _PET_FIELDS)}) "  # noqa: S608
        f"SELECT {selected} FROM {quote(Category._meta.db_table)} "
        f"WHERE {category_id} = %s RETURNING {_quoted(connection, _RETURNED)}"
    )


@cache
def _statement(vendor: str) -> str:
    """On PostgreSQL, both INSERTs in one statement, returning the animal's; elsewhere, the
    event's alone, its values given in full. Made once per database vendor."""
    connection = connections[DEFAULT_DB_ALIAS]
    quote = connection.ops.quote_name
    event = f"INSERT INTO {quote(Event._meta.db_table)} ({_quoted(connection, _EVENT_FIELDS)}) "
    if vendor != "postgresql":
        placeholders = ", ".join("%s" for _ in _EVENT_FIELDS)
        return f"{event}VALUES ({placeholders}) RETURNING {quote(str(Event._meta.pk.column))}"
    returned = [quote(str(field.column)) for field in _RETURNED]
    # The event's data is the pet as the API shows it, with what the INSERT gave it.
    given = ", ".join(
        f"'{_SHOWN[field.attname]}', {column}"
        for field, column in zip(_RETURNED, returned, strict=True)
        if field.attname in _SHOWN
    )
    selected = ", ".join(
        f"%s::jsonb || jsonb_build_object({given})" if field is _DATA else "%s"
        for field in _EVENT_FIELDS
    )
    # An INSERT returns only its own table's columns: the animal's are read from new_pet.
    from_pet = ", ".join(
        f"(SELECT {column} FROM new_pet)"  # noqa: S608
        for column in returned
    )
    return (
        f"WITH new_pet AS ({_pet_sql(vendor)}) "  # noqa: S608
        f"{event}SELECT {selected} FROM new_pet RETURNING {from_pet}"
    )
