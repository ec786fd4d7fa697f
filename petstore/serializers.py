"""Strict serializer building blocks: JSON types are taken as they are, never coerced.

DRF's own fields are lenient on purpose (``"1"`` and ``1.0`` are integers, ``5`` is a string);
our contract is not, so these fields check the JSON type before DRF's validation runs.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from django.utils.functional import cached_property
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.fields import SkipField, empty
from rest_framework.utils.serializer_helpers import BindingDict

INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)
# A path id (petId, orderId): a positive int64; anything else is a 404 from the router.
PATH_ID_SCHEMA = {"type": "integer", "format": "int64", "minimum": 1, "maximum": INT64_MAX}


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer (not a string, float or boolean) within int64 unless narrowed further."""

    default_error_messages = {"invalid": "A JSON integer is required."}

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", INT64_MIN)
        kwargs.setdefault("max_value", INT64_MAX)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return data


@extend_schema_field(OpenApiTypes.INT64)
class Int64Field(serializers.IntegerField):
    """An int64 in a response (ids): documented as ``integer``/``int64``."""


class StrictCharField(serializers.CharField):
    default_error_messages = {"invalid": "A JSON string is required."}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        try:
            # JSON can carry lone surrogates ("\ud800"), which no database can store.
            data.encode("utf-8")
        except UnicodeEncodeError:
            self.fail("invalid")
        return super().to_internal_value(data)


def _sent_value(field: serializers.Field, data: Any) -> Any:
    """The value as sent. DRF takes a query parameter sent empty (``?limit=``) as absent, and
    quietly uses the default; for us an empty value is a value, and invalid."""
    return data.get(field.field_name, empty)


class StrictChoiceField(serializers.ChoiceField):
    """A JSON string, one of ``choices``; a refusal names what was sent and every choice."""

    default_error_messages = {
        "invalid_choice": '"{input}" is not one of: {allowed}.',
        "not_a_string": "A JSON string is required, one of: {allowed}.",
    }

    def get_value(self, dictionary: Any) -> Any:
        return _sent_value(self, dictionary)

    def to_internal_value(self, data: Any) -> Any:
        allowed = ", ".join(map(str, self.choices))
        if not isinstance(data, str):
            self.fail("not_a_string", allowed=allowed)
        if data not in self.choice_strings_to_values:
            self.fail("invalid_choice", input=data, allowed=allowed)
        return self.choice_strings_to_values[data]


def sent_list(field: serializers.Field, data: Any) -> Any:
    """A list parameter as one comma-separated text: ``?type=a,b`` as the document writes it
    (form, not exploded), or ``?type=a&type=b`` as generated clients send arrays by default."""
    name = field.field_name
    if name not in data:
        return empty
    getlist = getattr(data, "getlist", None)
    return ",".join(getlist(name)) if getlist is not None else data[name]


class QueryCharField(serializers.CharField):
    """A text query parameter; sent empty (``?cursor=``) it is invalid, not absent."""

    def get_value(self, dictionary: Any) -> Any:
        return _sent_value(self, dictionary)


class QueryIntegerField(serializers.IntegerField):
    """An integer query parameter written as digits only (``20``, not ``20.0`` or `` 20``)."""

    _digits = re.compile(r"^-?[0-9]{1,19}$")
    default_error_messages = {"invalid": "An integer is required."}

    def get_value(self, dictionary: Any) -> Any:
        return _sent_value(self, dictionary)

    def to_internal_value(self, data: Any) -> int:
        if not isinstance(data, str) or not self._digits.match(data):
            self.fail("invalid")
        return super().to_internal_value(data)


class SharedFieldsSerializer(serializers.Serializer):
    """A serializer whose fields are bound once per class, by its first plain instance, where
    DRF deep-copies every declared field for each instance: validating a value keeps no state
    in the field. For request bodies and query strings, read on every write and every listing.

    A field reads ``partial`` and ``context`` from the serializer it is bound to, so an
    instance given either binds fields of its own, as DRF does."""

    _bound: ClassVar[dict[type, BindingDict]] = {}

    @cached_property
    def fields(self) -> BindingDict:
        if self.partial or self._context:
            return super().fields
        fields = self._bound.get(type(self))
        if fields is None:
            fields = self._bound[type(self)] = super().fields
        return fields

    @classmethod
    def bound_fields(cls) -> BindingDict:
        """The class's fields, without making an instance once they are bound."""
        return cls._bound.get(cls) or cls().fields


class StrictSerializer(SharedFieldsSerializer):
    """Refuses fields it does not know, and read-only ones, naming each."""

    # Fields of the resource that a client may read but never send.
    read_only_names: frozenset[str] = frozenset({"id"})

    def to_internal_value(self, data: Any) -> Any:
        extra: dict[str, list[str]] = {}
        if isinstance(data, dict):
            for name in data:
                field = self.fields.get(name)
                if name in self.read_only_names or (field is not None and field.read_only):
                    extra[name] = ["This field is read-only."]
                elif field is None:
                    extra[name] = ["Unknown field."]
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            detail = (
                exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
            )
            raise serializers.ValidationError({**detail, **extra}) from None
        if extra:
            raise serializers.ValidationError(extra)
        return value


class QuerySerializer(SharedFieldsSerializer):
    """Query parameters: declared as a serializer, so that the schema documents them, and
    validated by ``parse`` with the class's fields."""

    @classmethod
    def parse(cls, query_params: Any) -> dict[str, Any]:
        fields = cls.bound_fields()
        values, errors = {}, {}
        for name, field in fields.items():
            if name not in query_params:
                # Absent: its default, if it has one. (DRF's own path to the same answer raises
                # and catches an exception per absent field, on every listing.)
                if field.default is not empty:
                    values[name] = field.get_default()
                continue
            try:
                values[name] = field.run_validation(field.get_value(query_params))
            except SkipField:
                continue
            except serializers.ValidationError as exc:
                errors[name] = exc.detail
        if errors:
            raise serializers.ValidationError(errors)
        return values

    @classmethod
    def lookups(cls, values: dict[str, Any]) -> dict[str, Any]:
        """Those of ``values`` (``parse``'s) that this class declares, each by its field's
        ``source``: for a filter, the ORM lookup it stands for."""
        fields = cls.bound_fields()
        return {str(field.source): values[name] for name, field in fields.items() if name in values}


class IdListField(serializers.ListField):
    """A query parameter naming up to ``max_items`` ids, comma-separated: ``3`` or ``1,2,5``.
    The document shows an array of int64 written that way (``petstore.openapi``); the text is
    parsed here rather than by ``child``, which would take ``1.0`` or `` 1``."""

    child = serializers.IntegerField(min_value=0, max_value=INT64_MAX)
    default_error_messages = {
        "invalid": "A comma-separated list of IDs (whole numbers) is required.",
        "too_many": "At most {max_items} IDs are allowed.",
    }

    def __init__(self, *, max_items: int, **kwargs: Any) -> None:
        self.max_items = max_items
        super().__init__(min_length=1, max_length=max_items, **kwargs)

    def get_value(self, dictionary: Any) -> Any:
        return sent_list(self, dictionary)

    def to_internal_value(self, data: Any) -> list[int]:
        if not isinstance(data, str):
            self.fail("invalid")
        parts = data.split(",")
        if len(parts) > self.max_items:
            self.fail("too_many", max_items=self.max_items)
        if not all(part.isascii() and part.isdigit() for part in parts):
            self.fail("invalid")
        ids = {int(part) for part in parts}
        if max(ids) > INT64_MAX:
            self.fail("invalid")
        return sorted(ids)
