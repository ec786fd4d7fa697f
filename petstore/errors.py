"""One error format for the whole API: ``{code, message, status}`` as application/json.

Failures reach the client from three layers, and each is funnelled into the same body:
- DRF views raise APIExceptions (ours below, or DRF's own), and the services they call raise
  the domain's exceptions (``petstore.exceptions``): ``exception_handler`` maps both.
- Anything a view raises that DRF does not handle (a bug, a database outage):
  ``exception_handler`` as well, so DRF still finalises the response.
- Django itself (unknown paths, a disallowed Host, CSRF, a crash in middleware, DEBUG's
  technical pages): ``ApiErrorMiddleware`` replaces any non-JSON error response, on every path
  but the admin's, whose users are people with a browser.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from enum import StrEnum
from http import HTTPStatus
from typing import Any, TypeVar

from django.core.exceptions import (
    ObjectDoesNotExist,
    RequestDataTooBig,
    SuspiciousOperation,
)
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from rest_framework import exceptions
from rest_framework.response import Response

from petstore.exceptions import Conflict, InvalidReference
from petstore.metrics import DATABASE_FAILURES

logger = logging.getLogger("petstore.errors")

COMPACT = {"separators": (",", ":")}
ADMIN_PREFIX = "/admin/"


# Whether a path is the API's: under /v1, the base URL itself included (``//v1/pets`` is an
# unknown API path too). A pattern's match, asked by every middleware of every request.
is_api_path = re.compile(r"/*v1(?:/|\Z)").match


def answers_with_error_body(path: str) -> bool:
    """Everything but the admin answers errors as the Error body: the API, the probes, the
    docs and unknown paths alike."""
    return not path.startswith(ADMIN_PREFIX)


class ErrorCode(StrEnum):
    """Every ``code`` an Error body carries, whoever answers: the service, and in front of it
    gunicorn's worker (``deploy/worker.py``) and nginx (``deploy/nginx.conf``), which write
    theirs as text; ``tests/petstore/test_error_codes.py`` holds them all to this list."""

    VALIDATION_ERROR = "validation_error"
    MALFORMED_REQUEST = "malformed_request"
    UNAUTHORIZED = "unauthorized"
    FORBIDDEN = "forbidden"
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    GONE = "gone"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    CONFLICT = "conflict"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    RATE_LIMITED = "rate_limited"
    TEMPORARILY_BANNED = "temporarily_banned"
    INTERNAL_ERROR = "internal_error"
    SERVICE_UNAVAILABLE = "service_unavailable"
    BAD_REQUEST = "bad_request"
    # What the front ends refuse before the service reads a request, or send in its place.
    REQUEST_TIMEOUT = "request_timeout"
    LENGTH_REQUIRED = "length_required"
    URI_TOO_LONG = "uri_too_long"
    EXPECTATION_FAILED = "expectation_failed"
    HEADER_TOO_LARGE = "header_too_large"
    NOT_IMPLEMENTED = "not_implemented"
    BAD_GATEWAY = "bad_gateway"
    GATEWAY_TIMEOUT = "gateway_timeout"
    HTTP_VERSION_NOT_SUPPORTED = "http_version_not_supported"


class MalformedRequest(exceptions.APIException):
    status_code = HTTPStatus.BAD_REQUEST
    default_code = ErrorCode.MALFORMED_REQUEST
    default_detail = "The request body must be a JSON object."


class _ConflictError(exceptions.APIException):
    status_code = HTTPStatus.CONFLICT
    default_code = ErrorCode.CONFLICT


class Gone(exceptions.APIException):
    status_code = HTTPStatus.GONE
    default_code = ErrorCode.GONE
    default_detail = "This operation has been removed."


class PayloadTooLarge(exceptions.APIException):
    status_code = HTTPStatus.REQUEST_ENTITY_TOO_LARGE
    default_code = ErrorCode.PAYLOAD_TOO_LARGE
    default_detail = "The request body is too large."


# A 503's Retry-After, in seconds: PostgreSQL's or Redis's failover or restart takes seconds, so
# a client retrying this soon is served soon after, yet does not resend at once into the outage.
RETRY_AFTER_OUTAGE = 2


class ServiceUnavailable(exceptions.APIException):
    status_code = HTTPStatus.SERVICE_UNAVAILABLE
    default_code = ErrorCode.SERVICE_UNAVAILABLE
    default_detail = "The service cannot reach its database; try again shortly."
    # Read as Throttled's is, by exception_handler: the Retry-After it sends.
    wait = RETRY_AFTER_OUTAGE


# DRF's own exceptions, named the way our contract names them.
_CODES: list[tuple[type[exceptions.APIException], ErrorCode]] = [
    (exceptions.ValidationError, ErrorCode.VALIDATION_ERROR),
    (exceptions.ParseError, ErrorCode.MALFORMED_REQUEST),
    (exceptions.NotAuthenticated, ErrorCode.UNAUTHORIZED),
    (exceptions.AuthenticationFailed, ErrorCode.UNAUTHORIZED),
    (exceptions.PermissionDenied, ErrorCode.FORBIDDEN),
    (exceptions.NotFound, ErrorCode.NOT_FOUND),
    (exceptions.MethodNotAllowed, ErrorCode.METHOD_NOT_ALLOWED),
    (exceptions.UnsupportedMediaType, ErrorCode.UNSUPPORTED_MEDIA_TYPE),
    (exceptions.Throttled, ErrorCode.RATE_LIMITED),
]

# For error responses built by Django rather than by us.
_CODE_BY_STATUS = {
    400: ErrorCode.MALFORMED_REQUEST,
    401: ErrorCode.UNAUTHORIZED,
    403: ErrorCode.FORBIDDEN,
    404: ErrorCode.NOT_FOUND,
    405: ErrorCode.METHOD_NOT_ALLOWED,
    413: ErrorCode.PAYLOAD_TOO_LARGE,
    415: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    500: ErrorCode.INTERNAL_ERROR,
    503: ErrorCode.SERVICE_UNAVAILABLE,
}

_MESSAGES = {
    exceptions.NotAuthenticated: (
        "An API key is required: send it as `Authorization: Bearer <key>`."
    ),
    exceptions.NotFound: "No such resource.",
}


def error_body(
    status: int, code: ErrorCode, message: str, errors: dict[str, list[str]] | None = None
) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message, "status": status}
    if errors:
        body["errors"] = errors
    return body


def error_response(
    status: int,
    code: ErrorCode,
    message: str,
    headers: dict[str, str] | None = None,
    errors: dict[str, list[str]] | None = None,
) -> JsonResponse:
    """An Error body outside DRF (middleware, plain Django views)."""
    response = JsonResponse(
        error_body(status, code, message, errors), status=status, json_dumps_params=COMPACT
    )
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def _field_errors(detail: Any) -> dict[str, list[str]]:
    if isinstance(detail, dict):
        return {str(field): _sentences(messages) for field, messages in detail.items()}
    return {"non_field_errors": _sentences(detail)}


def _sentences(detail: Any, where: str = "") -> list[str]:
    """A field's messages as sentences. DRF nests them as the value does: a list's items by
    index (``{1: ["…"]}``: its second item), an object's fields by name; each is said with where
    it is, never as the structure's repr."""
    if isinstance(detail, dict):
        return [
            sentence
            for place, nested in detail.items()
            for sentence in _sentences(nested, _within(where, place))
        ]
    if isinstance(detail, list | tuple):
        return [sentence for nested in detail for sentence in _sentences(nested, where)]
    return [f"{where}: {detail}" if where else str(detail)]


def _within(where: str, place: Any) -> str:
    named = f"Item {place + 1}" if isinstance(place, int) else f"`{place}`"
    return f"{where}, {named[0].lower()}{named[1:]}" if where else named


def _validation_message(errors: dict[str, list[str]]) -> str:
    fields = [f for f in errors if f != "non_field_errors"]
    if not fields:
        return next(iter(errors.values()))[0]
    if len(fields) == 1:
        return f"Invalid `{fields[0]}`: {errors[fields[0]][0]}"
    return "Invalid fields: " + ", ".join(f"`{f}`" for f in fields) + "."


def _code_for(exc: exceptions.APIException) -> ErrorCode:
    for cls, code in _CODES:
        if isinstance(exc, cls):
            return code
    try:
        return ErrorCode(exc.default_code)
    except ValueError:
        # A code of DRF's that the contract does not name (``not_acceptable``): its status's.
        return _code_for_status(exc.status_code)


def _code_for_status(status: int) -> ErrorCode:
    """The code of an error answered with only a status to go by."""
    default = ErrorCode.INTERNAL_ERROR if status >= 500 else ErrorCode.BAD_REQUEST
    return _CODE_BY_STATUS.get(status, default)


def _message_for(exc: exceptions.APIException) -> str:
    for cls, message in _MESSAGES.items():
        # Only DRF's stock wording is replaced; a message we chose is kept.
        if type(exc) is cls and str(exc.detail) == str(cls.default_detail):
            return message
    return str(exc.detail)


class OutageLog:
    """An outage refuses every request it lasts: the process logs its first refusal, then at most
    one line a second, each counting the refusals since the line before it."""

    EVERY_SECONDS = 1.0

    def __init__(self) -> None:
        self.forget()

    def forget(self) -> None:
        self.refused = 0
        self.last_line = float("-inf")

    def refusal(self, request: HttpRequest | None, exc: BaseException) -> None:
        self.refused += 1
        now = time.time()
        if now - self.last_line < self.EVERY_SECONDS:
            return
        logger.error(
            "database unavailable [request %s]: %s (%d requests refused since the last line)",
            _request_id(request),
            exc,
            self.refused,
            extra={"refused": self.refused},
        )
        self.refused, self.last_line = 0, now


OUTAGE_LOG = OutageLog()


def internal_error_body(request: HttpRequest | None, exc: BaseException) -> tuple[int, dict]:
    """Log a crash with its request id; what the client sees says nothing about it."""
    if isinstance(exc, OperationalError | InterfaceError):
        DATABASE_FAILURES.inc()
        OUTAGE_LOG.refusal(request, exc)
        status, code, message = (
            503,
            ErrorCode.SERVICE_UNAVAILABLE,
            str(ServiceUnavailable.default_detail),
        )
    else:
        logger.error("unhandled exception [request %s]", _request_id(request), exc_info=exc)
        status, code = 500, ErrorCode.INTERNAL_ERROR
        message = f"Something went wrong on our side (request {_request_id(request)})."
    return status, error_body(status, code, message)


Answer = TypeVar("Answer", bound=HttpResponse)


def _unavailable_said_once(response: Answer) -> Answer:
    """A 503 for a fault says when to try again."""
    if response.status_code == HTTPStatus.SERVICE_UNAVAILABLE:
        response["Retry-After"] = str(RETRY_AFTER_OUTAGE)
    return response


def not_an_outage_line(record: logging.LogRecord) -> bool:
    """Django's ``django.request`` line for a 503, one per request: OutageLog has logged the
    outage, once a second (a filter of the logger's, settings.LOGGING)."""
    return getattr(record, "status_code", None) != HTTPStatus.SERVICE_UNAVAILABLE


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    """DRF's EXCEPTION_HANDLER: every exception a view raises becomes an Error body."""
    if isinstance(exc, Conflict):
        exc = _ConflictError(exc.message)
    elif isinstance(exc, InvalidReference):
        exc = exceptions.ValidationError({exc.field: [exc.message]})
    elif isinstance(exc, Http404 | ObjectDoesNotExist):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge()
    elif isinstance(exc, SuspiciousOperation):
        # Django's refusals of hostile requests (over 1,000 query parameters, say): the
        # client's mistake, answered as such, never a 500.
        exc = MalformedRequest(_suspicious_message(exc))
    if not isinstance(exc, exceptions.APIException):
        request = context.get("request")
        status, body = internal_error_body(getattr(request, "_request", None), exc)
        return _unavailable_said_once(Response(body, status=status))

    headers = {}
    if auth_header := getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = auth_header
    if (wait := getattr(exc, "wait", None)) is not None:
        headers["Retry-After"] = str(max(1, int(wait)))
    status = exc.status_code
    if isinstance(exc, exceptions.ValidationError):
        errors = _field_errors(exc.detail)
        body = error_body(status, ErrorCode.VALIDATION_ERROR, _validation_message(errors), errors)
    else:
        body = error_body(status, _code_for(exc), _message_for(exc))
    return Response(body, status=status, headers=headers)


def _suspicious_message(exc: SuspiciousOperation) -> str:
    # Django's messages name its settings ("DATA_UPLOAD_MAX_NUMBER_FIELDS"): say it plainly.
    if type(exc).__name__ == "TooManyFieldsSent":
        return "The request has too many query or form parameters."
    return "The request is malformed."


def _request_id(request: HttpRequest | None) -> str:
    return getattr(request, "request_id", "-")


def crash_response(request: HttpRequest, exc: Exception) -> HttpResponse | None:
    """The Error body for what a view raised, or None for Django to answer."""
    if isinstance(exc, SuspiciousOperation):
        return None  # Django answers 400 (413 for a body too big); ApiErrorMiddleware rewrites it
    status, body = internal_error_body(request, exc)
    return _unavailable_said_once(JsonResponse(body, status=status, json_dumps_params=COMPACT))


class ApiErrorMiddleware:
    """Makes every /v1 error an Error body, whoever produced it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code >= 400 and answers_with_error_body(request.path_info):
            response = self._as_error_body(response)
        if not response.streaming and not response.has_header("Content-Length"):
            # CommonMiddleware would say it, but /v1 never reaches it (petstore.api_branch);
            # without it the app server sends the body chunked.
            response["Content-Length"] = str(len(response.content))
        return response

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not answers_with_error_body(request.path_info):
            return None
        return crash_response(request, exc)

    @staticmethod
    def _as_error_body(response: HttpResponse) -> HttpResponse:
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        status = response.status_code
        code = _code_for_status(status)
        message = {
            404: "No such resource or path.",
            500: "Something went wrong on our side.",
        }.get(status, HTTPStatus(status).phrase + ".")
        replacement = error_response(status, code, message)
        # Keep what the inner layers said about the response (Allow, rate limits, Retry-After).
        for name, value in response.items():
            if name.lower() not in {"content-type", "content-length"}:
                replacement[name] = value
        return replacement
