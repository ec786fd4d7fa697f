"""Where a /v1 request leaves the browser's middleware for the API's own.

The admin and the docs page go through every layer of settings.MIDDLEWARE. An API call carries
a bearer key and no cookie: sessions, the common redirects, authentication, the second factor,
messages, CSRF and clickjacking have nothing to do for it, so at ``ApiBranch`` it takes the
API's layers instead (settings.API_MIDDLEWARE: admission, the HTTP rules of /v1), which end in
Django's own call of the view, as the browser's layers do.

Django builds its middleware from the last listed to the first, calling each class with the
layers below it. ``ViewCall``, listed last, is handed that call of the view; it passes it on to
the ``ApiBranch`` built next and leaves the chain (``MiddlewareNotUsed``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured, MiddlewareNotUsed
from django.core.handlers.exception import convert_exception_to_response
from django.http import HttpRequest, HttpResponse
from django.utils.module_loading import import_string

from petstore.errors import is_api_path

Handler = Callable[[HttpRequest], HttpResponse]

# From ViewCall to ApiBranch, within the one thread that builds a handler's middleware.
_built = threading.local()


class ViewCall:
    """Listed last: hands Django's call of the view to ``ApiBranch``, then steps aside."""

    def __init__(self, get_response: Handler) -> None:
        _built.view_call = get_response
        raise MiddlewareNotUsed


class ApiBranch:
    """Listed before the browser's layers: /v1 goes through the API's layers instead."""

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response
        view_call: Handler | None = getattr(_built, "view_call", None)
        if view_call is None:
            raise ImproperlyConfigured(
                "petstore.api_branch.ViewCall must be listed last in MIDDLEWARE."
            )
        del _built.view_call
        # Built as Django builds settings.MIDDLEWARE: each layer answers its own exceptions.
        api: Callable[[HttpRequest], Any] = view_call
        for path in reversed(settings.API_MIDDLEWARE):
            api = convert_exception_to_response(import_string(path)(api))
        self.api = api

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if is_api_path(request.path_info):
            response: HttpResponse = self.api(request)
            return response
        return self.get_response(request)
