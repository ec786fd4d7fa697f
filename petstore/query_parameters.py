"""The query parameters each operation takes, and the refusal of any other (``400``, naming
each, as an unknown body field is refused): a partner's typo (``?categoryid=2``) must not look
like a filter that works. So is a parameter that takes one value sent twice
(``?limit=1&limit=100``): which one was meant is a guess. A parameter the document declares as an
array takes its items repeated as well as comma-separated.

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
def taken(view: Callable[..., Any], method: str) -> dict[str, bool]:
    """The names ``view`` (a viewset's ``as_view()``) takes for ``method``, in the document's
    order, each with whether it may be sent more than once (an array): a dict for its order and
    quick membership."""
    generator = SchemaGenerator()  # holds the view's schema while it is read
    schema = generator.create_view(view, method).schema
    schema.method = method
    schema.registry = ComponentRegistry()
    schema.path = schema.path_regex = schema.path_prefix = ""
    # The sources of an operation's query parameters, as AutoSchema._get_parameters reads them.
    overrides = schema._process_override_parameters("request")
    declared = [
        *(parameter for (_, where), parameter in overrides.items() if where == "query"),
        *schema._get_filter_parameters(),
        *schema._get_pagination_parameters(),
    ]
    return {
        parameter["name"]: parameter.get("schema", {}).get("type") == "array"
        for parameter in declared
    }


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
    repeated = [
        name for name, values in request.GET.lists() if len(values) > 1 and names.get(name) is False
    ]
    if not unknown and not repeated:
        return None
    errors = {name: ["Unknown query parameter."] for name in unknown}
    errors |= {name: ["Sent more than once: it takes one value."] for name in repeated}
    message = " ".join(
        [
            *([_refusal(unknown, names)] if unknown else []),
            *([_repeated(repeated)] if repeated else []),
        ]
    )
    return error_response(400, ErrorCode.VALIDATION_ERROR, message, errors=errors)


def _plainly_taken(query: str, names: dict[str, bool]) -> bool:
    """Whether every name in ``query``, the raw query string, is one of ``names`` as sent, and
    none that takes one value is sent twice. Read from the string as it came: parsing it into
    ``request.GET`` costs a 304, which never reads the query otherwise, more than the rest of the
    check."""
    # As parse_qsl splits it: on "&", empty parts skipped, the name before the first "=". A name
    # sent escaped ("%", "+") is none of ``names`` as sent: request.GET reads it as the view would.
    sent = [part.partition("=")[0] for part in query.split("&") if part]
    if not all(name in names for name in sent):
        return False
    # Most queries name each parameter once: then nothing is repeated, arrays or not.
    return len(sent) == len(set(sent)) or all(names[name] for name in sent if sent.count(name) > 1)


def _refusal(unknown: list[str], names: dict[str, bool]) -> str:
    listed = ", ".join(f"`{name}`" for name in unknown)
    what = "parameter" if len(unknown) == 1 else "parameters"
    takes = ", ".join(f"`{name}`" for name in names) if names else "none"
    return f"Unknown query {what} {listed}: this operation takes {takes}."


def _repeated(repeated: list[str]) -> str:
    listed = ", ".join(f"`{name}`" for name in repeated)
    if len(repeated) == 1:
        return f"The query parameter {listed} takes one value: send it once."
    return f"The query parameters {listed} take one value each: send each once."
