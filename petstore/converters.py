"""Path converters of the API's URLs."""

from __future__ import annotations

from django.urls import register_converter

from petstore.serializers import INT64_MAX


class Int64Converter:
    """A positive int64 id; anything else is not a path we serve (404, never a database error)."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 0 < number <= INT64_MAX:
            raise ValueError(value)
        return number

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(Int64Converter, "int64")
