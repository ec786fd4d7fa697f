"""What admission finds and decides about a request, each step's result one immutable value:
the key the request sent (``Sent``), the key found for it (``Lookup``), and what admission
decided (``Admission``), stored on the request."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from django.http import HttpRequest
from rest_framework.exceptions import APIException, PermissionDenied
from rest_framework.request import Request

from apikeys.limiter import Decision, Outcome, Standing
from apikeys.records import KeyRecord


class ForeignOrigin(PermissionDenied):
    """A publishable key sent from a web origin it is not bound to."""


class Sent(NamedTuple):
    """The key a request sent: as sent, its digest (what it is found by) and its display
    prefix (what the logs name it by)."""

    token: str
    digest: str
    prefix: str


class Counted(NamedTuple):
    """A count Redis made as it read the key's record, in the same round trip, and when."""

    outcome: Outcome
    now: float


class Lookup(NamedTuple):
    """A key found for a request, and what the finding already settled."""

    record: KeyRecord
    generation: str = ""  # the key generation it was read under, for the count to verify
    refusal: APIException | None = None  # why it may not be used now, from here; None: it may
    counted: Counted | None = None  # counted already, by its record (usable from any origin)
    address: Admission | None = None  # the count that let a digest Redis lacked reach SQL


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
