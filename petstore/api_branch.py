"""Where a /v1 request leaves the browser's middleware for the API's own.

The admin and the docs page go through every layer of settings.MIDDLEWARE and Django's call of
the view. An API call carries a bearer key and no cookie: sessions, the common redirects,
authentication, the second factor, messages, CSRF and clickjacking have nothing to do for it,
so at ``ApiBranch`` it takes the API's layers instead (settings.API_MIDDLEWARE: admission, the
HTTP rules of /v1), which end in the API's call of the view (``petstore.view_call``). Every
answer of /v1 comes back through here, and leaves private (``petstore.cache_control``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.handlers.exception import convert_exception_to_response
from django.http import HttpRequest, HttpResponse
from django.utils.module_loading import import_string

from petstore.cache_control import kept_private
from petstore.errors import is_api_path
from petstore.view_call import call_view

Handler = Callable[[HttpRequest], HttpResponse]


class ApiBranch:
    """Listed before the browser's layers: /v1 goes through the API's layers instead."""

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response
        # Built as Django builds settings.MIDDLEWARE: each layer answers its own exceptions.
        api: Callable[[HttpRequest], Any] = call_view
        for path in reversed(settings.API_MIDDLEWARE):
            api = convert_exception_to_response(import_string(path)(api))
        self.api = api

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if is_api_path(request.path_info):
            # Whichever layer answered (a refusal of admission's too), the answer is private.
            return kept_private(self.api(request))
        return self.get_response(request)
