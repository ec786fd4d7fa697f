"""A stored event's ``data`` in the shape its type has today: events are kept as they were
recorded, so a field added to the type's serializer since is missing from the older ones; it is
served as ``null`` (or the field's default), with no data migration, so that every event the feed
or a webhook serves is what today's document describes (docs/compatibility.md)."""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from django.utils.module_loading import import_string
from rest_framework import serializers
from rest_framework.fields import empty

from events.types import AUDIENCE


class Field(NamedTuple):
    missing: Any  # what a stored event without it shows: null, or the field's default
    nested: Shape | None  # the fields of an object it holds, or of each of a list's items


Shape = dict[str, Field]


def shape_of(serializer: serializers.Serializer) -> Shape:
    """The fields ``serializer`` shows, each with what stands in for it when it is missing."""
    shape = {}
    for name, field in serializer.fields.items():
        if field.write_only:
            continue
        inner = field.child if isinstance(field, serializers.ListSerializer) else field
        nested = shape_of(inner) if isinstance(inner, serializers.Serializer) else None
        default = None if field.default is empty or callable(field.default) else field.default
        shape[name] = Field(default, nested)
    return shape


@functools.cache
def type_shape(kind: str) -> Shape | None:
    """Today's shape of ``kind``'s data; None for a type the table no longer has."""
    audience = AUDIENCE.get(kind)
    return shape_of(import_string(audience.data)()) if audience else None


def filled(data: Any, shape: Shape) -> Any:
    """``data`` with every field of ``shape`` it lacks, at any depth; itself when it lacks none."""
    if isinstance(data, list):
        items = [filled(item, shape) for item in data]
        return data if all(new is old for new, old in zip(items, data, strict=True)) else items
    if not isinstance(data, dict):
        return data
    result = data
    for name, field in shape.items():
        if name not in data:
            value = field.missing
        elif field.nested is not None:
            value = filled(data[name], field.nested)
            if value is data[name]:
                continue
        else:
            continue
        if result is data:
            result = dict(data)
        result[name] = value
    return result
