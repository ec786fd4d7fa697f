"""The query parameters each operation takes, and the refusal of any other (``400``, naming
each, as an unknown body field is refused): a partner's typo (``?categoryid=2``) must not look
like a filter that works.

What an operation takes is what its view declares for the OpenAPI document (its
``extend_schema`` parameters, their query serializers' fields, its paginator's ``limit`` and
``cursor``), read by drf-spectacular's own inspection of the view, as the document is made:
once per operation and process, on its first request with a query.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from django.http import HttpRequest, HttpResponse
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.plumbing import ComponentRegistry

from petstore.errors import ErrorCode, error_response


@cache
def taken(view: Callable[..., Any], method: str) -> dict[str, None]:
    """The names ``view`` (a viewset's ``as_view()``) takes for ``method``, in the document's
    order: a dict for its order and quick membership."""
    generator = SchemaGenerator()  # holds the view's schema while it is read
    schema = generator.create_view(view, method).schema
    schema.method = method
    schema.registry = ComponentRegistry()
    schema.path = schema.path_regex = schema.path_prefix = ""
    # The sources of an operation's query parameters, as AutoSchema._get_parameters reads them.
    overrides = schema._process_override_parameters("request")
    declared = [
        *(name for name, where in overrides if where == "query"),
        *(parameter["name"] for parameter in schema._get_filter_parameters()),
        *(parameter["name"] for parameter in schema._get_pagination_parameters()),
    ]
    return dict.fromkeys(declared)


def unknown_parameters(request: HttpRequest, view: Callable[..., Any]) -> HttpResponse | None:
    """The refusal of the query parameters ``view`` does not take for the request's method, or
    None. Views that are not viewsets (the document's) and methods they do not serve (DRF
    answers 405) are left to the view."""
    query = request.META.get("QUERY_STRING")
    if not query:
        return None
    actions = getattr(view, "actions", None)
    if actions is None:
        return None
    method = request.method or "GET"
    served = "GET" if method == "HEAD" else method
    if served.lower() not in actions:
        return None
    names = taken(view, served)
    if _plainly_taken(query, names):
        return None
    unknown = [name for name in request.GET if name not in names]
    if not unknown:
        return None
    return error_response(
        400,
        ErrorCode.VALIDATION_ERROR,
        _refusal(unknown, names),
        errors={name: ["Unknown query parameter."] for name in unknown},
    )


def _plainly_taken(query: str, names: dict[str, None]) -> bool:
    """Whether every name in ``query``, the raw query string, is one of ``names`` as sent. Read
    from the string as it came: parsing it into ``request.GET`` costs a 304, which never reads the
    query otherwise, more than the rest of the check."""
    # As parse_qsl splits it: on "&", empty parts skipped, the name before the first "=". A name
    # sent escaped ("%", "+") is none of ``names`` as sent: request.GET reads it as the view would.
    return all(part.partition("=")[0] in names for part in query.split("&") if part)


def _refusal(unknown: list[str], names: dict[str, None]) -> str:
    listed = ", ".join(f"`{name}`" for name in unknown)
    what = "parameter" if len(unknown) == 1 else "parameters"
    takes = ", ".join(f"`{name}`" for name in names) if names else "none"
    return f"Unknown query {what} {listed}: this operation takes {takes}."
