"""One JSON line per request, under an id the client can quote.

The id is the client's ``X-Request-ID`` when it is well-formed (so a caller can follow its own
request through our logs), one of ours otherwise, and is echoed in the response. Under /v1 the
line names the account and the key's display prefix (from ``request.admission``, which the API's
admission sets), never the key. It is built after the response, with one orjson call, and
written by a handler that adds nothing to it (settings.LOGGING): its own ``ts`` is the time.
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Callable

import orjson
from django.http import HttpRequest, HttpResponse

from petstore.api_request import ApiRequest
from petstore.callers import Admitted

logger = logging.getLogger("petstore.requests")
_REQUEST_ID_RE = re.compile(r"[A-Za-z0-9._-]{1,128}")
# The line ``http.server`` writes for each request it answered (``log_request``).
_SERVER_REQUEST_LINE = '"%s" %s %s'


class RequestLogMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: ApiRequest) -> HttpResponse:
        started = time.perf_counter()
        supplied = request.META.get("HTTP_X_REQUEST_ID", "")
        request_id = supplied if _REQUEST_ID_RE.fullmatch(supplied) else os.urandom(16).hex()
        request.request_id = request_id
        response = self.get_response(request)
        response["X-Request-ID"] = request_id
        if logger.isEnabledFor(logging.INFO):
            # Absent outside /v1, and on the open stack, which admits no key.
            admission: Admitted | None = getattr(request, "admission", None)
            api_key = admission.key if admission else None
            line = {
                "ts": round(time.time(), 3),
                "request_id": request_id,
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "duration_ms": round((time.perf_counter() - started) * 1000, 2),
                "account_id": api_key.account_id if api_key else None,
                "key_prefix": admission.key_prefix if admission and api_key else None,
            }
            logger.info(orjson.dumps(line).decode())
        return response


class JsonLineHandler(logging.StreamHandler):
    """Writes each line as it was logged: the request log's lines are whole JSON documents
    with their own time, so there is nothing to format (settings.LOGGING)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.stream.write(f"{record.msg}\n")
            self.flush()
        except Exception:
            self.handleError(record)


def not_a_request_line(record: logging.LogRecord) -> bool:
    """False for the development server's own line of a request answered, which this log
    writes already; its other lines (a malformed request, HTTPS spoken to it) pass."""
    return record.msg != _SERVER_REQUEST_LINE
