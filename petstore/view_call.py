"""The API's call of its view: Django's, less what no /v1 view uses."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.template.response import SimpleTemplateResponse
from django.urls import resolve

from petstore.errors import crash_response
from petstore.query_parameters import unknown_parameters


def call_view(request: HttpRequest) -> HttpResponse:
    """Django's call of the view, less what no /v1 view uses: view and template-response
    middleware, ATOMIC_REQUESTS (off) and async views; a query parameter the operation does not
    take is refused before it runs. What a view raises is answered as Django answers it, by
    ``ApiErrorMiddleware``'s hook; a DRF ``Response`` is rendered here, as Django's handler
    renders it."""
    match = resolve(request.path_info)
    request.resolver_match = match
    try:
        refused = unknown_parameters(request, match.func)
        if refused is not None:
            return refused
        response: HttpResponse = match.func(request, *match.args, **match.kwargs)
        if isinstance(response, SimpleTemplateResponse):
            response.render()
    except Exception as exc:
        crash = crash_response(request, exc)
        if crash is None:
            raise
        return crash
    return response
