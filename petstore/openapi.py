"""The OpenAPI document (served by ``petstore.openapi_view``): what every operation shares, which
drf-spectacular cannot infer from the views: the server answering, the Error body and the
errors any operation may answer (``error_responses``), and the headers on every response (the
rate limit's, ``Cache-Control``). Each view declares its own error statuses and headers in its
``extend_schema`` (``error_responses``, ``response_headers``), so that the document says what
the code does."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

from petstore import cache_control
from petstore.errors import ErrorCode


def list_this_server_first(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: the server that serves the document comes first,
    so that the docs page's "Try it out" calls the instance it was loaded from (``make run``
    included); production and staging follow."""
    if request is None:  # `manage.py spectacular`: there is no "this server"
        return result
    here = request.build_absolute_uri("/v1")
    others = [server for server in result.get("servers", []) if server["url"] != here]
    result["servers"] = [{"url": here, "description": "This server"}, *others]
    return result


ERROR_SCHEMA = {
    "type": "object",
    "required": ["code", "message", "status"],
    "properties": {
        "code": {"$ref": "#/components/schemas/ErrorCode"},
        "message": {"type": "string", "description": "A human-readable description."},
        "status": {"type": "integer", "description": "The HTTP status code."},
        "errors": {
            "type": "object",
            "description": "For validation errors: the messages for each invalid field.",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        },
    },
}

ERROR_CODE_SCHEMA = {
    "type": "string",
    "enum": [code.value for code in ErrorCode],
    "description": "What went wrong, for a program to act on; `message` says it to a person.",
}

HEADERS = {
    "X-RateLimit-Limit": "Requests allowed in the window with the fewest requests remaining.",
    "X-RateLimit-Remaining": "Requests left in that window.",
    "X-RateLimit-Reset": "Unix time, in seconds, at which that window ends.",
    "RateLimit-Policy": "Every window of the limit, in the syntax of "
    "draft-ietf-httpapi-ratelimit-headers-11: "
    '`"minute";q=60;w=60, "day";q=1000;w=86400` (q: requests, w: seconds).',
    "RateLimit": "The window with the fewest requests remaining (the one `X-RateLimit-*` "
    'describes), draft-ietf-httpapi-ratelimit-headers-11: `"minute";r=57;t=42` '
    "(r: requests remaining, t: seconds until the window ends).",
    "Retry-After": "Seconds to wait before trying again.",
    "Link": 'On a list: `<url>; rel="next"` when more items follow. '
    'On getPet: `</v1/pets>; rel="successor-version"`.',
    "Location": "The URL of the resource just created.",
    "Idempotent-Replayed": "`true` when this is the stored answer to an earlier request with "
    "the same `Idempotency-Key`.",
    "Deprecation": "When this operation was deprecated, as `@<unix time>` (RFC 9745).",
    "Sunset": "When this operation stops working (RFC 8594).",
    "ETag": "The answer's strong validator: send it as `If-None-Match` to get `304` while the "
    "answer is unchanged.",
    "Cache-Control": "Who may keep the answer: `no-store` on an answer carrying a secret "
    "(nobody keeps it); `private, no-cache` on every other (the caller's own client alone, "
    "asking again, with the `ETag` where there is one, before using it).",
    "Vary": "`Authorization`: the answer depends on the key.",
}
RATE_LIMIT_HEADERS = (
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "RateLimit-Policy",
    "RateLimit",
)
# On every answer, whoever makes it: the limit's and who may keep it (petstore.cache_control).
EVERY_ANSWER = (*RATE_LIMIT_HEADERS, "Cache-Control")
_HEADER_SCHEMAS: dict[str, dict[str, Any]] = {
    **{name: {"type": "integer"} for name in HEADERS if name.startswith(("X-", "Retry"))},
    "Cache-Control": {"type": "string", "enum": list(cache_control.VALUES)},
}
# Sent only on some of the answers they are declared on: while more pages follow, on a replay.
# Every other header is sent on each answer it is declared on, and the document says so.
SOMETIMES_SENT = frozenset({"Link", "Idempotent-Replayed"})

_ERROR_REF = {"$ref": "#/components/schemas/Error"}
ERROR_DESCRIPTIONS = {
    "400": "The request is invalid: a field or parameter, or the body itself (`code` says which).",
    "401": "The API key is missing, malformed, unknown, revoked or expired.",
    "403": "The API key lacks the scope this operation needs, or a publishable key was sent "
    "from a web origin it is not bound to (`forbidden`).",
    "404": "No such resource.",
    "409": "Not allowed in the resource's current state, or a request with this "
    "`Idempotency-Key` is still in progress.",
    "410": "The operation is past its sunset date.",
    "413": "The request body is larger than 64 KiB.",
    "415": "The request body is not `application/json`.",
    "422": "This `Idempotency-Key` was already used with a different body.",
    "429": "Over the plan's rate limit (`rate_limited`) or temporarily banned "
    "(`temporarily_banned`); retry after `Retry-After` seconds.",
    "500": "A fault on our side; the message names the request id.",
    "503": "The service cannot reach its database; retry after `Retry-After` seconds.",
}
# What every operation may answer, whatever it does: the key (401, 403), the limit (429), and
# faults (500, 503).
SHARED_ERRORS = (401, 403, 429, 500, 503)


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    """An operation's error responses, for its ``extend_schema``: its own ``statuses`` and
    those every operation shares, each the Error body with its status's description."""
    return {
        status: OpenApiResponse(_ERROR_REF, ERROR_DESCRIPTIONS[str(status)])
        for status in sorted({*statuses, *SHARED_ERRORS})
    }


def response_headers(*names: str, on: tuple[int, ...] = ()) -> list[OpenApiParameter]:
    """Response headers an operation sends, for its ``extend_schema``'s parameters: on the
    responses ``on``, or on every one when ``on`` is empty."""
    return [
        OpenApiParameter(
            name,
            OpenApiTypes.STR,
            OpenApiParameter.HEADER,
            description=HEADERS[name],
            response=list(on) if on else True,
        )
        for name in names
    ]


def _header_ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/headers/{name}"}


def _rename_paginated_lists(result: dict[str, Any], schemas: dict[str, Any]) -> None:
    """Our pages are bare arrays, so call them what the template does: ``Pets``, not
    drf-spectacular's ``PaginatedPetList``."""
    renames = {
        name: name.removeprefix("Paginated").removesuffix("List") + "s"
        for name in list(schemas)
        if name.startswith("Paginated") and name.endswith("List")
    }
    for old, new in renames.items():
        schemas[new] = schemas.pop(old)
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            for response in operation.get("responses", {}).values():
                for content in response.get("content", {}).values():
                    ref = content.get("schema", {}).get("$ref", "")
                    old = ref.rsplit("/", 1)[-1]
                    if old in renames:
                        content["schema"]["$ref"] = f"#/components/schemas/{renames[old]}"


def _type_nullable_references(schemas: dict[str, Any]) -> None:
    """A nullable reference is written ``allOf: [$ref], nullable: true`` in OpenAPI 3.0, which
    needs ``type`` beside ``nullable`` to be valid (Redocly's nullable-type-sibling)."""
    for schema in schemas.values():
        for field in schema.get("properties", {}).values():
            if "allOf" in field and field.get("nullable") and "type" not in field:
                field["type"] = "object"


def _write_query_lists_comma_separated(operation: dict[str, Any]) -> None:
    """A list in a query is one parameter, its items comma-separated (``?categoryId=1,2``):
    ``style: form, explode: false``, where OpenAPI's default repeats the name for each item."""
    for parameter in operation.get("parameters", []):
        if parameter["in"] == "query" and parameter.get("schema", {}).get("type") == "array":
            parameter.setdefault("style", "form")
            parameter.setdefault("explode", False)


def add_common_responses(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook; see the module docstring."""
    components = result.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    schemas["Error"] = ERROR_SCHEMA
    schemas["ErrorCode"] = ERROR_CODE_SCHEMA
    # Request bodies are strict (petstore.serializers.StrictSerializer): say so.
    for name in ("NewPet", "NewOrder", "NewEndpoint"):
        if name in schemas:
            schemas[name]["additionalProperties"] = False
    _rename_paginated_lists(result, schemas)
    _type_nullable_references(schemas)
    components["headers"] = {
        name: {
            "description": description,
            "schema": _HEADER_SCHEMAS.get(name, {"type": "string"}),
            "required": name not in SOMETIMES_SENT,
        }
        for name, description in HEADERS.items()
    }
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            _write_query_lists_comma_separated(operation)
            # A callback is a request to the partner's endpoint, which takes no key of ours
            # (the signature is its proof): it has no security, said so.
            for expressions in operation.get("callbacks", {}).values():
                for callback in expressions.values():
                    for sent in callback.values():
                        sent.setdefault("security", [])
            for status, response in operation.get("responses", {}).items():
                fields = response.setdefault("headers", {})
                # The view's own headers (``response_headers``), and those on every answer,
                # each described once, in the components.
                for name in [*fields, *EVERY_ANSWER]:
                    fields[name] = _header_ref(name)
                if status in ("429", "503"):
                    fields["Retry-After"] = _header_ref("Retry-After")
    return result


# The compatibility promise (docs/compatibility.md): every enum in an answer is open (a later
# 1.x may add values, and clients keep the unknown ones), except these, whose values are the
# whole set until 2.0. An enum only in requests is closed by nature: the server refuses others.
CLOSED_ENUM = "x-enum-closed"
CLOSED_SCHEMAS = ("PetStatus",)


def mark_closed_enums(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: ``x-enum-closed: true`` on each closed enum, the
    schemas named above and every enum a parameter takes."""
    schemas = result.get("components", {}).get("schemas", {})
    for name in CLOSED_SCHEMAS:
        schemas[name][CLOSED_ENUM] = True
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if "enum" in parameter.get("schema", {}):
                    parameter["schema"][CLOSED_ENUM] = True
    return result
