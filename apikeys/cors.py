"""CORS for publishable keys: browsers may read the API's answers from the origins a key lists.

django-cors-headers answers for the origins the operator lists (``PETSTORE_CORS_ORIGINS``);
this module adds, per request, the origins of the publishable key sent (``request.cors_origins``,
put there by ``apikeys.gateway``), so that a widget's page reads its answers, error statuses
included (401, 403, 404, 429: a widget can say why it shows nothing), with the headers listed
in ``CORS_EXPOSE_HEADERS``. Any other site gets no ``Access-Control-Allow-Origin`` and its
scripts read nothing; the gateway has refused its request already.

**Preflights carry no key** (browsers never send ``Authorization`` on them), so they cannot be
answered per key. Under /v1 one from any origin is answered ``204`` allowing ``GET``/``HEAD``
with ``Authorization`` (and ``X-Request-ID``): that lets the real request reach the gateway,
which refuses it unless its key lists the page's origin, and answers CORS only then. Allowing
the preflight gives nothing away: the API uses no cookies, so a request a browser sends on a
page's behalf carries only what the page itself holds. Writes are not allowed this way (a
publishable key cannot write), so a secret key pasted into a web page by mistake does not work
there for writes either. The operator's own origins keep every method (django-cors-headers).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from corsheaders.signals import check_request_enabled
from django.conf import settings
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

from petstore.errors import is_api_path

PREFLIGHT_METHODS = ("GET", "HEAD")
PREFLIGHT_HEADERS = ("authorization", "x-request-id")
PREFLIGHT_MAX_AGE = 600


@receiver(check_request_enabled)
def allow_the_keys_own_origins(sender: Any, request: HttpRequest, **kwargs: Any) -> bool:
    """django-cors-headers asks, on the way out, whether this request's origin may read the
    answer: yes when the publishable key sent lists it."""
    origin = request.headers.get("Origin")
    return origin is not None and origin in getattr(request, "cors_origins", ())


class PreflightMiddleware:
    """Answers preflights under /v1 from origins the operator has not listed (see above);
    runs before django-cors-headers, which answers those of the listed ones."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        origin = request.headers.get("Origin")
        if (
            request.method != "OPTIONS"
            or "Access-Control-Request-Method" not in request.headers
            or not origin
            or origin in settings.CORS_ALLOWED_ORIGINS
            or not is_api_path(request.path_info)
        ):
            return self.get_response(request)
        return preflight_response(request, origin)


def preflight_response(request: HttpRequest, origin: str) -> HttpResponse:
    response = HttpResponse(status=204)
    patch_vary_headers(response, ("Origin",))
    method = request.headers["Access-Control-Request-Method"].strip()
    asked = {
        name.strip().lower()
        for name in request.headers.get("Access-Control-Request-Headers", "").split(",")
        if name.strip()
    }
    if method in PREFLIGHT_METHODS and asked <= set(PREFLIGHT_HEADERS):
        response["Access-Control-Allow-Origin"] = origin
        response["Access-Control-Allow-Methods"] = ", ".join(PREFLIGHT_METHODS)
        response["Access-Control-Allow-Headers"] = ", ".join(PREFLIGHT_HEADERS)
        response["Access-Control-Max-Age"] = str(PREFLIGHT_MAX_AGE)
    # Otherwise no CORS header at all: the browser does not send the request.
    return response
