"""Idempotent POSTs: a retry with the same ``Idempotency-Key`` never creates anything twice.

Within ``RETENTION`` the same key from the same account with the same body replays the first
answer (status, body, ``Location``, plus ``Idempotent-Replayed: true``); with another body it is
a ``422 idempotency_key_reused``; while the first request is still running, a ``409``; and a
``409`` too when the answer was kept by an earlier release whose answers had another shape
(``petstore.representation``), rather than replay what today's document does not describe.
Answers from our side's failures (5xx) are not kept, so the retry runs again.

The work and its remembered answer commit in one transaction, or neither does: a request that
dies anywhere (its database gone before, during or after the write, its worker killed) leaves
nothing behind, so its retry does the work, once; one that committed left its answer, which the
retry replays. Of two requests with the same key at once, the second's record waits on the
first's under the unique (account, key) constraint, then finds its answer and replays it: there
is never a record "in flight" for a retry to wait out.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import timedelta
from functools import wraps
from http import HTTPStatus
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from petstore.errors import ErrorCode
from petstore.exceptions import Conflict
from petstore.models import IdempotencyRecord
from petstore.parsers import json_object
from petstore.representation import shape

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 255
RETENTION = timedelta(hours=24)
# A claim an earlier release left "in flight" this long belongs to a request that died.
ABANDONED_AFTER = timedelta(minutes=5)
IN_PROGRESS = "A request with this Idempotency-Key is still in progress; retry shortly."

IDEMPOTENCY_KEY_PARAMETER = OpenApiParameter(
    HEADER,
    {"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH},
    OpenApiParameter.HEADER,
    description="Up to 255 characters, unique per operation you mean to happen once. A retry "
    "with the same key and body within 24 hours replays the first answer.",
)


class IdempotencyKeyReused(exceptions.APIException):
    status_code = HTTPStatus.UNPROCESSABLE_ENTITY
    default_code = ErrorCode.IDEMPOTENCY_KEY_REUSED
    default_detail = "This Idempotency-Key was used with a different request body."


def _fingerprint(request: Request, data: dict[str, Any]) -> str:
    # ASCII: a body may carry lone surrogates, which have no UTF-8 encoding.
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(f"{request.method} {request.path}\n{canonical}".encode()).hexdigest()


def _earlier(account_id: int, key: str, fingerprint: str) -> None:
    """Nothing if ``key`` is free for this request (an expired record of it is dropped);
    otherwise the refusal (422, 409) or the replay (raised as ``_Replay``) it gets."""
    existing = IdempotencyRecord.objects.filter(account_id=account_id, key=key).first()
    if existing is None:
        return
    now = timezone.now()
    expired = existing.created_at <= now - RETENTION
    # Only an earlier release claimed a key before its work: a claim it left behind.
    abandoned = existing.status_code is None and existing.created_at <= now - ABANDONED_AFTER
    if expired or abandoned:
        existing.delete()
        return
    if existing.fingerprint != fingerprint:
        raise IdempotencyKeyReused()
    if existing.status_code is None:
        raise Conflict(IN_PROGRESS)
    if existing.shape != shape():
        raise Conflict(_answered_before(existing))
    raise _Replay(existing)


def _answered_before(record: IdempotencyRecord) -> str:
    """Why a kept answer is not replayed: it is in a shape today's document does not describe
    (a release changed the answer's fields since), so a client reading it by today's would
    misread it. What the first request did stands, and can be read afresh."""
    where = f" at {record.location}" if record.location else ""
    return (
        f"This Idempotency-Key's request was answered ({record.status_code}{where}) by an "
        "earlier release of the API, whose answers are shaped differently; it is not replayed. "
        "Read the result with a GET, or send a new request with a new key."
    )


class _Replay(Exception):
    def __init__(self, record: IdempotencyRecord) -> None:
        self.record = record


def _replay(record: IdempotencyRecord) -> HttpResponse:
    # The stored bytes as they were sent, not a re-rendering of them.
    response = HttpResponse(record.body, status=record.status_code, content_type="application/json")
    response["Idempotent-Replayed"] = "true"
    if record.location:
        response["Location"] = record.location
    return response


def _render(view: APIView, request: Request, response: HttpResponse) -> bytes:
    """The body exactly as the client will get it: rendered now, once, by DRF's own steps
    (DRF renders a response only once, so it is not rendered again on the way out). An answer
    built already encoded (``petstore.renderers.JsonAnswer``) has nothing left to render."""
    view.finalize_response(request, response)  # type: ignore[arg-type]
    if isinstance(response, Response):
        response.render()
    return response.content


def _remember(
    account_id: int, key: str, fingerprint: str, response: HttpResponse, body: bytes
) -> None:
    """Keep the answer, in the transaction of the work it answers."""
    try:
        with transaction.atomic():
            IdempotencyRecord.objects.create(
                account_id=account_id,
                key=key,
                fingerprint=fingerprint,
                status_code=response.status_code,
                body=body.decode(),
                location=response.get("Location", ""),
                shape=shape(),
            )
    except IntegrityError:
        # Another request with this key committed first: this one's work must not stand.
        raise _Raced() from None


class _Raced(Exception):
    pass


Action = Callable[..., HttpResponse]


def _once(
    view: APIView,
    request: Request,
    action: Action,
    account_id: int,
    key: str,
    fingerprint: str,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> HttpResponse:
    """The action and its remembered answer, in one transaction; or the earlier answer."""
    with transaction.atomic():
        try:
            _earlier(account_id, key, fingerprint)
        except _Replay as replay:
            return _replay(replay.record)
        try:
            response = action(view, request, *args, **kwargs)
        except Exception as exc:
            # Turned into its answer now, as DRF would, so that the answer can be kept.
            response = view.handle_exception(exc)
        body = _render(view, request, response)
        if response.status_code >= HTTPStatus.INTERNAL_SERVER_ERROR:
            # Our failure, not an answer: nothing it wrote stands, and the retry runs again.
            transaction.set_rollback(True)
            return response
        _remember(account_id, key, fingerprint, response, body)
    return response


def idempotent(action: Action) -> Callable[..., HttpResponse]:
    """Make a DRF POST action honour ``Idempotency-Key`` (see the module docstring)."""

    @wraps(action)
    def wrapper(view: APIView, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        key = request.META.get("HTTP_IDEMPOTENCY_KEY")
        if key is None:
            return action(view, request, *args, **kwargs)
        if not key or len(key) > MAX_KEY_LENGTH:
            raise exceptions.ValidationError(
                {HEADER: [f"Must be 1 to {MAX_KEY_LENGTH} characters."]}
            )
        # The caller: the account of the key, authenticated before any action runs.
        account_id = getattr(request.auth, "account_id", None)
        if account_id is None:
            raise exceptions.NotAuthenticated()
        fingerprint = _fingerprint(request, json_object(request))
        try:
            return _once(view, request, action, account_id, key, fingerprint, args, kwargs)
        except _Raced:
            pass  # the other request's answer is there now: replayed, as to any retry
        try:
            _earlier(account_id, key, fingerprint)
        except _Replay as replay:
            return _replay(replay.record)
        raise Conflict(IN_PROGRESS)  # the other request did nothing after all: retry

    return wrapper


def purge_expired() -> int:
    """Delete records past RETENTION; returns how many."""
    deleted, _ = IdempotencyRecord.objects.filter(
        created_at__lte=timezone.now() - RETENTION
    ).delete()
    return deleted
