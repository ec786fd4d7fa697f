"""The API key a request was made with, as the views of apps below ``apikeys`` see it (events,
webhooks): what it may see and whose it is, named by this protocol rather than by importing
``apikeys``, which grants and checks keys (``apikeys.records.KeyRecord`` is the one
implementation)."""

from __future__ import annotations

from typing import Protocol, cast

from django.http import HttpRequest
from rest_framework import exceptions
from rest_framework.request import Request


class Caller(Protocol):
    @property
    def account_id(self) -> int: ...

    @property
    def scope_set(self) -> frozenset[str]: ...

    @property
    def is_publishable(self) -> bool: ...


def caller(request: Request) -> Caller:
    """The key of an authenticated API request (the views require one: ``HasScope``)."""
    if request.auth is None:
        raise exceptions.NotAuthenticated()
    return cast(Caller, request.auth)


class Admitted(Protocol):
    """What admission decided of a request's key, as the plumbing reads it
    (``apikeys.admission.result.Admission`` is the one implementation)."""

    @property
    def key(self) -> Caller | None: ...

    @property
    def key_prefix(self) -> str: ...

    @property
    def error(self) -> Exception | None: ...


def admitted_caller(request: HttpRequest) -> Caller | None:
    """The valid key admission found for ``request`` before DRF authenticates it (its
    ``admission``), or None: no key, a refused one, or no admission (not under /v1)."""
    admission: Admitted | None = getattr(request, "admission", None)
    if admission is None or admission.error is not None:
        return None
    return admission.key
