"""The OpenAPI document as the SDKs' generators read it (clients/generate.py): what the
compatibility promise lets a 1.x server send, written so that the generated code accepts it
(docs/compatibility.md, "What the SDKs accept").

- An open enum (one not marked ``x-enum-closed``) in an answer is either one of its values or
  any other string: ``anyOf: [the enum, a string marked x-any-other-value]``, which
  openapi-python-client parses to the enum's member or the plain ``str``, and which
  clients/schema_ts.mjs writes as the enum's union and `${string}`. Requests keep the enum.
- A property the document marks ``x-added-after`` (added to its type after a release) is not
  required: an event stored before it has none.
- For Python, a union of types told apart by a discriminator (the events) gains a last member
  that any other type fits (``UnknownEvent``): openapi-python-client tries the members in turn
  and would raise on a type it does not list.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import yaml

CLOSED_ENUM = "x-enum-closed"
ANY_OTHER_VALUE = "x-any-other-value"
ADDED_AFTER = "x-added-after"
SCHEMAS = "#/components/schemas/"


def read(path: Path) -> dict[str, Any]:
    """A document saved as JSON (as served) or YAML (as released)."""
    text = path.read_text()
    loaded: dict[str, Any] = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    return loaded


def for_generators(document: dict[str, Any]) -> dict[str, Any]:
    """The document both generators read: open enums kept open, added fields not required."""
    document = copy.deepcopy(document)
    schemas = document["components"]["schemas"]
    open_enums = {
        name for name, schema in schemas.items() if "enum" in schema and CLOSED_ENUM not in schema
    }
    for name in answered(document):
        schema = schemas[name]
        for field_name, field in schema.get("properties", {}).items():
            _widen(field.get("items", field), open_enums)
            if ADDED_AFTER in field and field_name in schema.get("required", []):
                schema["required"].remove(field_name)
    return document


def for_python(document: dict[str, Any]) -> dict[str, Any]:
    """What openapi-python-client reads besides: each discriminated union with its fallback,
    and nullable references as it understands them."""
    document = copy.deepcopy(document)
    schemas = document["components"]["schemas"]
    for name, schema in list(schemas.items()):
        if "oneOf" in schema and "discriminator" in schema:
            schemas[f"Unknown{name}"] = _any_other_member(name, schema, schemas)
            schema["oneOf"].append({"$ref": f"{SCHEMAS}Unknown{name}"})
    return _nullable_references_untyped(document)


def answered(document: dict[str, Any]) -> set[str]:
    """The schemas an answer may hold: those its responses name, and theirs, and so on."""
    schemas = document["components"]["schemas"]
    found: set[str] = set()
    waiting = [
        name
        for operations in document.get("paths", {}).values()
        for operation in operations.values()
        if isinstance(operation, dict)
        for response in operation.get("responses", {}).values()
        for name in _named(response)
    ]
    while waiting:
        name = waiting.pop()
        if name not in found:
            found.add(name)
            waiting.extend(_named(schemas[name]))
    return found


def _named(node: Any) -> list[str]:
    """The schemas a part of the document refers to, directly."""
    if isinstance(node, dict):
        ref = node.get("$ref", "")
        own = [ref.removeprefix(SCHEMAS)] if ref.startswith(SCHEMAS) else []
        return own + [name for value in node.values() for name in _named(value)]
    if isinstance(node, list):
        return [name for value in node for name in _named(value)]
    return []


def _widen(field: dict[str, Any], open_enums: set[str]) -> None:
    """A field of an open enum (``$ref``, or ``allOf`` of one, beside readOnly and the like)
    becomes the enum or any other string, in place."""
    reference = field["allOf"][0] if len(field.get("allOf", [])) == 1 else field
    name = reference.get("$ref", "").removeprefix(SCHEMAS)
    if name not in open_enums:
        return
    beside = {key: value for key, value in field.items() if key not in ("allOf", "$ref")}
    field.clear()
    field["anyOf"] = [{"$ref": f"{SCHEMAS}{name}"}, {"type": "string", ANY_OTHER_VALUE: True}]
    field.update(beside)


def _any_other_member(name: str, union: dict[str, Any], schemas: dict[str, Any]) -> dict[str, Any]:
    """What every member of the union ``name`` has: a property they all declare alike keeps its
    schema, one they declare each their own way may be anything, the discriminator any string."""
    members = [schemas[member["$ref"].removeprefix(SCHEMAS)] for member in union["oneOf"]]
    tag = union["discriminator"]["propertyName"]
    shared = set.intersection(*(set(member.get("properties", {})) for member in members))
    properties = {}
    for field in sorted(shared, key=list(members[0]["properties"]).index):
        each = [member["properties"][field] for member in members]
        properties[field] = each[0] if all(declared == each[0] for declared in each) else {}
    properties[tag] = {"type": "string", "description": "A type this SDK does not list."}
    required = set.intersection(*(set(member.get("required", [])) for member in members))
    return {
        "type": "object",
        "description": f"An {name} of a type added after this SDK was made: what every type has.",
        "properties": properties,
        "required": [field for field in properties if field in required],
    }


def _nullable_references_untyped(document: dict[str, Any]) -> dict[str, Any]:
    """The document without the ``type: object`` beside a nullable reference (``allOf: [$ref],
    nullable: true``): Redocly requires it (petstore.openapi), and openapi-python-client, seeing
    it, drops the ``null`` (``RateLimit.ban`` could not be read when no ban is in force)."""
    for schema in document["components"]["schemas"].values():
        for field in schema.get("properties", {}).values():
            if "allOf" in field and field.get("nullable") and field.get("type") == "object":
                del field["type"]
    return document
