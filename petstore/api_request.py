"""What a request carries beside Django's own, declared once, as healthchecks' ``ApiRequest``:
each attribute is set by one middleware, before any layer after it reads it. A layer that sets
one takes its request as an ``ApiRequest``; a view reads through ``api_request``."""

from __future__ import annotations

from typing import cast

from django.http import HttpRequest
from rest_framework.request import Request

from petstore.callers import Admitted


class ApiRequest(HttpRequest):
    # The client's well-formed X-Request-ID or one of ours (petstore.requestlog, every request).
    request_id: str
    # The Host that ALLOWED_HOSTS accepted (petstore.api_http, /v1), for the API's links.
    checked_host: str
    # What admission decided of the key (apikeys.admission, /v1; the open stack has none).
    admission: Admitted


def api_request(request: HttpRequest | Request) -> ApiRequest:
    """``request`` as the middleware left it; DRF's ``Request`` wraps Django's."""
    return cast(ApiRequest, request._request if isinstance(request, Request) else request)
