"""Bearer API keys for DRF: what admission (``apikeys.admission``) already decided, handed to DRF.

Admission reads and checks the key before any view runs (unknown paths and 405s are limited
too); this class only reports what it found, so a key is never looked up twice.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request

from apikeys.admission.result import admission_of
from apikeys.records import KeyRecord


def caller_key(request: Request) -> KeyRecord:
    """The key of an authenticated API request (the views require one)."""
    record = request.auth
    if not isinstance(record, KeyRecord):
        raise exceptions.NotAuthenticated()
    return record


class BearerKeyAuthentication(BaseAuthentication):
    """``Authorization: Bearer <key>``; the request's user and its auth are the key's record."""

    def authenticate(self, request: Request) -> tuple[KeyRecord, KeyRecord] | None:
        admission = admission_of(request)
        if admission is None:
            return None
        if admission.error is not None:
            raise admission.error
        if admission.key is None:
            return None
        return admission.key, admission.key

    def authenticate_header(self, request: Request) -> str:
        # Without this DRF would answer 403 instead of 401 for a missing key.
        return "Bearer"


class BearerKeyAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "apikeys.authentication.BearerKeyAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "Pass your API key as a Bearer token in the `Authorization` header.",
        }
