"""The HTTP rules of /v1 beside Django's: a request names a host we serve and carries a bounded
number of query parameters, or is refused as the client's mistake (400, after admission has
counted it). The host checked is kept as the request's ``checked_host`` (``petstore.api_request``),
for the API's links (``petstore.pagination``)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse

from petstore.api_request import ApiRequest
from petstore.errors import ErrorCode, error_response


class ApiHttpMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: ApiRequest) -> HttpResponse:
        try:
            # ALLOWED_HOSTS, checked here since /v1 never reaches CommonMiddleware
            # (petstore.api_branch).
            request.checked_host = request.get_host()
        except DisallowedHost:
            return error_response(
                400,
                ErrorCode.MALFORMED_REQUEST,
                "The Host header names no host this service serves.",
            )
        return too_many_fields(request) or self.get_response(request)


def too_many_fields(request: HttpRequest) -> HttpResponse | None:
    """The refusal of a query string with more parameters than Django reads
    (``DATA_UPLOAD_MAX_NUMBER_FIELDS``), or None."""
    fields = request.META.get("QUERY_STRING", "").count("&") + 1
    if fields > settings.DATA_UPLOAD_MAX_NUMBER_FIELDS:
        # Django would refuse them only when a view reads them; refused here for every path,
        # the public schema included.
        return error_response(
            400, ErrorCode.MALFORMED_REQUEST, "The request has too many query parameters."
        )
    return None
