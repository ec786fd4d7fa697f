"""CORS under /v1: which web pages may read the API's answers.

Two kinds of origin may: the operator's (``PETSTORE_CORS_ORIGINS``, every method, any key), and
those a publishable key lists, for answers to requests made with that key
(``Admission.origins``, read by ``apikeys.admission``), error statuses included (401, 403,
404, 429: a widget can say why it shows nothing). Exposed: the headers in
``CORS_EXPOSE_HEADERS``. Any other site gets no ``Access-Control-Allow-Origin`` and its scripts
read nothing; admission has refused its request already.

**Preflights carry no key** (browsers never send ``Authorization`` on them), so they cannot be
answered per key. One from any origin is answered ``204`` allowing ``GET``/``HEAD`` with
``Authorization`` (and ``If-None-Match``, ``X-Request-ID``): that lets the real request reach
admission, which refuses it unless its key lists the page's origin, and answers CORS only then.
Allowing the preflight gives nothing away: the API uses no cookies, so a request a browser
sends on a page's behalf carries only what the page itself holds. Writes are not allowed this
way (a publishable key cannot write), so a secret key pasted into a web page by mistake does not
work there for writes either.

Written here rather than with django-cors-headers, which we used before: its origins are a
setting, and a key's origins are known only once admission has read the key; and on every API
call, most of which come from servers without ``Origin``, it parsed all headers and patched
``Vary``. Here a request without ``Origin`` costs one dictionary lookup.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

from apikeys.admission.result import admission_of
from petstore.errors import is_api_path

PREFLIGHT_METHODS = ("GET", "HEAD")
PREFLIGHT_HEADERS = ("authorization", "if-none-match", "x-request-id")
# The operator's origins may also write.
OPERATOR_METHODS = ("DELETE", "GET", "HEAD", "OPTIONS", "POST")
PREFLIGHT_MAX_AGE = 600


class CorsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        origin = request.META.get("HTTP_ORIGIN")
        if not origin or not is_api_path(request.path_info):
            return self.get_response(request)
        if request.method == "OPTIONS" and "HTTP_ACCESS_CONTROL_REQUEST_METHOD" in request.META:
            return preflight_response(request, origin)
        response = self.get_response(request)
        # The answer depends on Origin: caches must keep one per origin. (Without Origin there
        # is nothing to vary: an answer to a request with a key is never stored by a shared
        # cache, RFC 9111 §3.5.)
        patch_vary_headers(response, ("Origin",))
        admission = admission_of(request)
        if origin in settings.CORS_ALLOWED_ORIGINS or (
            admission is not None and origin in admission.origins
        ):
            response["Access-Control-Allow-Origin"] = origin
            response["Access-Control-Expose-Headers"] = ", ".join(settings.CORS_EXPOSE_HEADERS)
        return response


def preflight_response(request: HttpRequest, origin: str) -> HttpResponse:
    response = HttpResponse(status=204)
    patch_vary_headers(response, ("Origin",))
    method = request.META["HTTP_ACCESS_CONTROL_REQUEST_METHOD"].strip()
    asked = {
        name.strip().lower()
        for name in request.META.get("HTTP_ACCESS_CONTROL_REQUEST_HEADERS", "").split(",")
        if name.strip()
    }
    methods: tuple[str, ...]
    headers: tuple[str, ...]
    if origin in settings.CORS_ALLOWED_ORIGINS:
        methods, headers = OPERATOR_METHODS, tuple(settings.CORS_ALLOW_HEADERS)
    else:
        methods, headers = PREFLIGHT_METHODS, PREFLIGHT_HEADERS
    if method in methods and asked <= set(headers):
        response["Access-Control-Allow-Origin"] = origin
        response["Access-Control-Allow-Methods"] = ", ".join(methods)
        response["Access-Control-Allow-Headers"] = ", ".join(headers)
        response["Access-Control-Max-Age"] = str(PREFLIGHT_MAX_AGE)
    # Otherwise no CORS header at all: the browser does not send the request.
    return response
