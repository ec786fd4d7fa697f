"""Who may keep an answer of /v1 (``Cache-Control``): the caller's own client alone, asking
again before it uses the answer, since every answer is read with the caller's key and most are
its account's; and nobody, not even that client's disk, when the answer carries a secret."""

from __future__ import annotations

from django.http import HttpResponse

PRIVATE = "private, no-cache"
NO_STORE = "no-store"
# Every value an answer may carry, for the document.
VALUES = (PRIVATE, NO_STORE)


def kept_private(response: HttpResponse) -> HttpResponse:
    """``response``, private unless its view said otherwise."""
    if "Cache-Control" not in response:
        response["Cache-Control"] = PRIVATE
    return response
