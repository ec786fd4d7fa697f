"""Everything refused below Django is refused by nginx (or by our gunicorn worker) as JSON."""

from __future__ import annotations

import pytest

from deploy.serve import Front
from tests.front.conftest import assert_front_error, send_raw

HOST = b"Host: 127.0.0.1\r\n"
A_KEY = b"petstore_live_" + b"k" * 40

# (request as sent, status, code): each once refused by gunicorn in HTML, or a new way to try.
REFUSALS = {
    "an 8 KB Authorization header": (
        b"GET /v1/pets HTTP/1.1\r\n" + HOST + b"Authorization: Bearer " + b"a" * 8192 + b"\r\n\r\n",
        431,
        "header_too_large",
    ),
    "too many header bytes in all": (
        b"GET /healthz HTTP/1.1\r\n"
        + HOST
        + b"".join(b"X-Filler-%d: %s\r\n" % (n, b"v" * 3000) for n in range(8))
        + b"\r\n",
        431,
        "header_too_large",
    ),
    "an 8,000-character query": (
        b"GET /v1/pets?q=" + b"a" * 8000 + b" HTTP/1.1\r\n" + HOST + b"\r\n",
        414,
        "uri_too_long",
    ),
    "a bad Content-Length": (
        b"POST /v1/pets HTTP/1.1\r\n" + HOST + b"Content-Length: 12abc\r\n\r\n",
        400,
        "malformed_request",
    ),
    "a control character in a header name": (
        b"GET /v1/pets HTTP/1.1\r\n" + HOST + b"X-Te\x01st: yes\r\n\r\n",
        400,
        "malformed_request",
    ),
    "a control character in a header value": (
        b"GET /v1/pets HTTP/1.1\r\n" + HOST + b"X-Test: a\x01b\r\n\r\n",
        400,
        "malformed_request",
    ),
    "a bare CR in a header": (
        b"GET /v1/pets HTTP/1.1\r\n" + HOST + b"X-Test: a\rb\r\n\r\n",
        400,
        "malformed_request",
    ),
    "a bare LF splitting a header into a line with a space in its name": (
        b"GET /v1/pets HTTP/1.1\r\n" + HOST + b"X-Test: a\nb c\r\n\r\n",
        400,
        "malformed_request",
    ),
    "an obsolete folded header": (
        b"GET /v1/pets HTTP/1.1\r\n" + HOST + b"X-Test: a\r\n b\r\n\r\n",
        400,
        "malformed_request",
    ),
    "a duplicate Host": (
        b"GET /v1/pets HTTP/1.1\r\n" + HOST + HOST + b"\r\n",
        400,
        "malformed_request",
    ),
    "no Host": (b"GET /v1/pets HTTP/1.0\r\n\r\n", 400, "malformed_request"),
    "a lowercase method": (b"get /v1/pets HTTP/1.1\r\n" + HOST + b"\r\n", 400, "malformed_request"),
    "a two-letter method": (b"AB /v1/pets HTTP/1.1\r\n" + HOST + b"\r\n", 400, "malformed_request"),
    "TRACE": (b"TRACE /v1/pets HTTP/1.1\r\n" + HOST + b"\r\n", 405, "method_not_allowed"),
    "a raw non-ASCII path": (
        "GET /v1/caf\u00e9 HTTP/1.1\r\n".encode() + HOST + b"\r\n",
        400,
        "malformed_request",
    ),
    "a forgotten colon": (
        b"GET /v1/pets HTTP/1.1\r\n" + HOST + b"Authorization Bearer " + A_KEY + b"\r\n\r\n",
        400,
        "malformed_request",
    ),
    "both Content-Length and chunked": (
        b"POST /v1/pets HTTP/1.1\r\n"
        + HOST
        + b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        400,
        "malformed_request",
    ),
    "a malformed chunk": (
        b"POST /v1/pets HTTP/1.1\r\n" + HOST + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n",
        400,
        "malformed_request",
    ),
    "an unknown Transfer-Encoding": (
        b"POST /v1/pets HTTP/1.1\r\n" + HOST + b"Transfer-Encoding: gzip\r\n\r\n",
        501,
        "not_implemented",
    ),
    "HTTP/2.0 in clear text": (
        b"GET /v1/pets HTTP/2.0\r\n" + HOST + b"\r\n",
        505,
        "http_version_not_supported",
    ),
    "a declared body over 64 KiB": (
        b"POST /v1/pets HTTP/1.1\r\n" + HOST + b"Content-Length: 65537\r\n\r\n",
        413,
        "payload_too_large",
    ),
    "nginx's own error path": (b"GET /_front/400 HTTP/1.1\r\n" + HOST + b"\r\n", 404, "not_found"),
}


@pytest.mark.parametrize("case", list(REFUSALS))
def test_each_refusal_below_django_is_an_error_body_with_our_headers(front: Front, case: str):
    request, status, code = REFUSALS[case]

    reply = send_raw(front, request)

    assert_front_error(reply, status, code)
    assert reply is not None
    assert reply.headers.get("server", "nginx") == "nginx"  # no version given away


def test_a_request_id_the_client_chose_is_kept_on_a_refusal(front: Front):
    reply = send_raw(
        front,
        b"POST /v1/pets HTTP/1.1\r\n" + HOST + b"X-Request-ID: my-trace.42\r\n"
        b"Content-Length: 70000\r\n\r\n",
    )

    assert_front_error(reply, 413, "payload_too_large")
    assert reply is not None
    assert reply.headers["x-request-id"] == "my-trace.42"


def test_bare_lf_line_ends_are_read_as_line_ends_and_answered_by_the_service(front: Front):
    # RFC 9112 2.2 lets a recipient accept a lone LF as a line end; nginx does and passes
    # gunicorn clean CRLF lines, so this is no longer a refusal: the service answers it.
    reply = send_raw(front, b"GET /v1/pets HTTP/1.1\nHost: 127.0.0.1\nX-Test: yes\n\n")

    assert_front_error(reply, 401, "unauthorized")
    assert reply is not None
    assert reply.headers["x-ratelimit-limit"] == "60"
