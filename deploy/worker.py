"""gunicorn's sync worker, answering the requests it refuses with the service's Error body.

Behind nginx almost nothing malformed reaches gunicorn: nginx refuses it first, as JSON. What
remains is what nginx's parser accepts and gunicorn's stricter one does not (a control character
in a header value, a byte above 0x7E in the path, a two-letter method). gunicorn would answer
those with an HTML page and log the offending text, which may be a key; this worker answers the
Error body and logs only the kind of refusal.
"""

from __future__ import annotations

import json
import socket
from typing import Any

from gunicorn.http import errors
from gunicorn.workers.sync import SyncWorker

# (exception, status, code), first match wins; every other parse error is a 400.
_REFUSALS: list[tuple[type[Exception], int, str]] = [
    (errors.LimitRequestLine, 414, "uri_too_long"),
    (errors.LimitRequestHeaders, 431, "header_too_large"),
    (errors.UnsupportedTransferCoding, 501, "not_implemented"),
    (errors.ExpectationFailed, 417, "expectation_failed"),
]
_REASONS = {
    400: "Bad Request",
    414: "URI Too Long",
    417: "Expectation Failed",
    431: "Request Header Fields Too Large",
    500: "Internal Server Error",
    501: "Not Implemented",
}


def error_response(status: int, code: str, message: str) -> bytes:
    """A complete HTTP/1.1 response carrying the Error body, closing the connection."""
    body = json.dumps({"code": code, "message": message, "status": status}, separators=(",", ":"))
    head = (
        f"HTTP/1.1 {status} {_REASONS[status]}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/json\r\n"
        "X-Content-Type-Options: nosniff\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return (head + body).encode("ascii")


class JsonErrorWorker(SyncWorker):
    def handle_error(self, req: Any, client: socket.socket, addr: Any, exc: BaseException) -> None:
        application_fault = isinstance(
            exc, errors.InvalidResponseHeader | errors.InvalidResponseHeaderName
        )
        if isinstance(exc, errors.ParseException) and not application_fault:
            status, code = 400, "malformed_request"
            for kind, kind_status, kind_code in _REFUSALS:
                if isinstance(exc, kind):
                    status, code = kind_status, kind_code
                    break
            # The kind only: the exception's text quotes the request, which may hold a key.
            self.log.warning("Refused a malformed request: %s", type(exc).__name__)
            message = "The request could not be read: its request line or headers are malformed."
        else:
            status, code = 500, "internal_error"
            self.log.exception("Error handling a request")
            message = "Something went wrong on our side."
        try:
            client.sendall(error_response(status, code, message))
        except OSError:
            self.log.debug("Could not send the error response")
