"""The OpenAPI document's ``Event`` as JSON Schema, checked by jsonschema: what a partner's own
validator makes of the events the feed serves."""

from __future__ import annotations

import functools
import json
from typing import Any

from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from jsonschema import Draft7Validator


def json_schema(node: Any) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema: ``nullable: true`` becomes a ``null`` alternative,
    which JSON Schema has no keyword for; OpenAPI's other keywords mean the same in both or
    are annotations (``readOnly``, ``discriminator``) that a validator passes over."""
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {
        key: json_schema(value)
        for key, value in node.items()
        if not (key == "nullable" and isinstance(value, bool))
    }
    if node.get("nullable") is True:
        return {"anyOf": [{"type": "null"}, converted]}
    return converted


@functools.cache
def event_validator() -> Draft7Validator:
    """A validator of one event against the document's ``Event``, its references resolved in
    the document's own components."""
    document = json.loads(
        OpenApiJsonRenderer().render(SchemaGenerator().get_schema(request=None, public=True))
    )
    schema = {
        "$ref": "#/components/schemas/Event",
        "components": json_schema(document["components"]),
    }
    Draft7Validator.check_schema(schema)
    return Draft7Validator(schema, format_checker=Draft7Validator.FORMAT_CHECKER)


def assert_events_documented(events: list[dict[str, Any]]) -> None:
    """Each of ``events`` is an ``Event`` as the document says, to jsonschema."""
    validator = event_validator()
    for event in events:
        errors = [error.message for error in validator.iter_errors(event)]
        assert not errors, (event, errors)
