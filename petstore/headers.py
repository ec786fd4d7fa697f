"""Response headers whose values the service made itself, set without Django's checks.

``response[name] = value`` checks every value for characters a header cannot hold (and encodes
it to find out), which costs about 7,000 instructions a header (measured with callgrind): more
than making the value. An API answer carries a dozen headers the service writes from its own
digits and names (the limit's, the request id, the length, getPet's deprecation), so those are
set here, straight into the response's header store, keyed in lower case as
``HttpResponse.__setitem__`` keys it. Anything a client sent, or that could hold a line break,
goes through ``response[name] = value`` as usual.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.http import HttpResponseBase


def set_our_headers(response: HttpResponseBase, headers: Iterable[tuple[str, str]]) -> None:
    """Set ``headers``: ASCII names, and values of printable ASCII without line breaks."""
    store = response.headers._store
    for name, value in headers:
        store[name.lower()] = (name, value)
