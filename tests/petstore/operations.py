"""Every operation of the OpenAPI document, generated here, and what a valid call of each
sends, made from the document's own schemas: the path's ids, a body of its required
properties, and a bad value for any property or query parameter with what its refusal must say.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

from drf_spectacular.generators import SchemaGenerator

BAD = "not-one-of-these"


@cache
def document() -> dict[str, Any]:
    """Made once per test run: the tests only read it."""
    return SchemaGenerator().get_schema(request=None, public=True)


@dataclass
class Operation:
    path: str
    method: str
    spec: dict[str, Any]
    doc: dict[str, Any] = field(repr=False)

    @property
    def id(self) -> str:
        return self.spec["operationId"]

    def schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        return resolve(self.doc, schema)

    def body_schema(self) -> dict[str, Any] | None:
        content = self.spec.get("requestBody", {}).get("content", {})
        if "application/json" not in content:
            return None
        return self.schema(content["application/json"]["schema"])

    def properties(self) -> dict[str, dict[str, Any]]:
        """The body's properties a client may send."""
        body = self.body_schema() or {}
        return {
            name: self.schema(prop)
            for name, prop in body.get("properties", {}).items()
            if not prop.get("readOnly")
        }

    def query_parameters(self) -> dict[str, dict[str, Any]]:
        return {
            p["name"]: self.schema(p["schema"])
            for p in self.spec.get("parameters", [])
            if p["in"] == "query"
        }

    def success_schemas(self) -> list[dict[str, Any]]:
        schemas = []
        for status, response in self.spec["responses"].items():
            if status.startswith("2"):
                for content in response.get("content", {}).values():
                    schemas.append(self.schema(content["schema"]))
        return schemas


def resolve(doc: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema or ("allOf" in schema and len(schema["allOf"]) == 1):
        if "$ref" in schema:
            *_, kind, name = schema["$ref"].split("/")
            schema = doc["components"][kind][name]
        else:
            schema = {**schema["allOf"][0], **{k: v for k, v in schema.items() if k != "allOf"}}
    if "items" in schema:
        schema = {**schema, "items": resolve(doc, schema["items"])}
    return schema


def operations(doc: dict[str, Any]) -> list[Operation]:
    """In the document's order, deletions last, so that each finds what it acts on."""
    found = [
        Operation(path, method, spec, doc)
        for path, methods in doc["paths"].items()
        for method, spec in methods.items()
    ]
    return sorted(found, key=lambda operation: operation.method == "delete")


@dataclass
class World:
    """What a valid call names: the ids of rows it acts on, by the names the document gives
    them, and where a webhook endpoint posts."""

    ids: dict[str, int]
    receiver_url: str = "http://127.0.0.1:9/hooks"

    def url(self, operation: Operation, query: str = "") -> str:
        path = "/v1" + operation.path.format(**self.ids)
        return f"{path}?{query}" if query else path

    def body(self, operation: Operation) -> dict[str, Any] | None:
        body = operation.body_schema()
        if body is None:
            return None
        required = body.get("required", [])
        return {
            name: self.valid(name, schema)
            for name, schema in operation.properties().items()
            if name in required
        }

    def valid(self, name: str, schema: dict[str, Any]) -> Any:
        items = schema.get("items", {})
        if name in self.ids:
            return self.ids[name]
        if "enum" in schema:
            return schema["enum"][0]
        if schema.get("type") == "array" and "enum" in items:
            return [items["enum"][0]]
        if schema.get("type") == "array" and items.get("type") == "integer":
            return [str(items.get("minimum", 0))]
        if schema.get("type") == "boolean":
            return True
        if schema.get("type") == "integer":
            return schema.get("minimum", 0)
        if schema.get("format") == "date-time":
            return (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
        if name == "url":
            return self.receiver_url
        return f"Walk {uuid.uuid4().hex[:8]}"


@dataclass
class Bad:
    """A value the schema refuses, and what the refusal must say: every word of ``all``, and
    at least one of ``any``."""

    value: Any
    all: list[str] = field(default_factory=list)
    any: list[str] = field(default_factory=list)


def bad_in_body(schema: dict[str, Any], valid: Any) -> Bad:
    items = schema.get("items", {})
    if "enum" in schema:
        return Bad(BAD, all=[BAD, *schema["enum"]])
    if schema.get("type") == "array" and "enum" in items:
        # The second item bad: its message must say which, and what each may be.
        return Bad([items["enum"][0], BAD], all=["Item 2", BAD, *items["enum"]])
    if schema.get("type") == "integer":
        return Bad(str(valid), any=["integer"])
    if schema.get("type") == "boolean":
        return Bad("yes", any=["boolean"])
    return bad_text(schema)


def bad_in_query(schema: dict[str, Any]) -> Bad:
    items = schema.get("items", {})
    if "enum" in schema:
        return Bad(BAD, all=[BAD, *schema["enum"]])
    if schema.get("type") == "array" and "enum" in items:
        return Bad(BAD, all=[BAD, *items["enum"]])
    if schema.get("type") == "array":
        return Bad("x", any=["whole number", "integer"])
    if schema.get("type") == "integer":
        return Bad("x", any=["integer"])
    return bad_text(schema)


def bad_text(schema: dict[str, Any]) -> Bad:
    if schema.get("format") == "date-time":
        return Bad("yesterday", any=["RFC 3339", "YYYY-MM-DD"])
    maximum = schema["maxLength"]  # a text without a bound would take anything
    return Bad("x" * (maximum + 1), all=[str(maximum)])
