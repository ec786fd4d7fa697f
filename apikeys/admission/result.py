"""What admission decided about a request, as one immutable value."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest
from rest_framework.exceptions import APIException, PermissionDenied
from rest_framework.request import Request

from apikeys.limiter import Decision, Standing
from apikeys.records import KeyRecord


class ForeignOrigin(PermissionDenied):
    """A publishable key sent from a web origin it is not bound to."""


@dataclass(frozen=True)
class Admission:
    decision: Decision  # the limiter's; its headers go on every answer
    key: KeyRecord | None = None  # the valid key the request was counted against
    key_prefix: str = ""  # its display prefix, for the logs
    error: APIException | None = None  # why the key sent was refused; DRF raises it
    origins: frozenset[str] = frozenset()  # the web origins of the key sent, even a refused one
    standing: Standing | None = None  # GET /v1/rate_limit's read of the account's windows


def admission_of(request: HttpRequest | Request) -> Admission | None:
    """The admission of ``request`` (DRF's ``Request`` reads through to Django's), or None
    outside /v1."""
    admission = getattr(request, "admission", None)
    return admission if isinstance(admission, Admission) else None
