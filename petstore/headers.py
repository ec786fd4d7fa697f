"""Response headers whose values the service made itself, set without Django's checks.

``response[name] = value`` checks every value for characters a header cannot hold (and encodes
it to find out), which costs about 7,000 instructions a header (measured with callgrind): more
than making the value. An API answer carries a dozen headers the service writes from its own
digits and names (the limit's, the request id, the length, getPet's deprecation, and the
security headers, checked once as they are first made), so those are set here, straight into
the response's header store, keyed in lower case as ``HttpResponse.__setitem__`` keys it.
Anything a client sent, or that could hold a line break, goes through ``response[name] = value``
as usual.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.middleware.security import SecurityMiddleware


def set_our_headers(response: HttpResponseBase, headers: Iterable[tuple[str, str]]) -> None:
    """Set ``headers``: ASCII names, and values of printable ASCII without line breaks."""
    store = response.headers._store
    for name, value in headers:
        store[name.lower()] = (name, value)


class SecurityHeadersMiddleware:
    """Django's SecurityMiddleware headers, set the same way as the service's own.

    ``SecurityMiddleware`` stays first in MIDDLEWARE, for its HTTPS redirect and Django's deploy
    checks, which look for it by name. On the way out it sets up to four headers on every
    answer (``X-Content-Type-Options``, ``Referrer-Policy``, ``Cross-Origin-Opener-Policy`` and,
    over HTTPS, ``Strict-Transport-Security``), each where the answer has none, and each through
    the per-value check: about 50,000 instructions of a get, measured with callgrind. Their
    values come from the settings alone, so this middleware, just inside it, works them out once
    by letting ``SecurityMiddleware`` itself set them on a blank response, then sets them on
    every answer that has none; ``SecurityMiddleware`` finds them there and leaves them.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self._plain = _security_headers(secure=False)
        self._secure = _security_headers(secure=True)

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        # Only HSTS depends on the request, and only when it is on: skip the scheme otherwise.
        headers = self._plain
        if self._secure != headers and request.is_secure():
            headers = self._secure
        store = response.headers._store
        set_our_headers(response, [pair for pair in headers if pair[0].lower() not in store])
        return response


def _security_headers(*, secure: bool) -> tuple[tuple[str, str], ...]:
    """What SecurityMiddleware adds, with the current settings, to an answer without headers."""
    request = HttpRequest()
    request.is_secure = lambda: secure  # type: ignore[method-assign]
    blank = HttpResponse()
    before = set(blank.headers)
    SecurityMiddleware(lambda request: blank).process_response(request, blank)
    return tuple((name, value) for name, value in blank.headers.items() if name not in before)
