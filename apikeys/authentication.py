"""Bearer API key authentication.

The key is looked up once per request, by ``authenticate_request``: the rate-limit middleware
needs the account before any view runs (unknown paths and 405s are limited and reported too),
and the DRF authentication class then reuses the same outcome instead of querying again.

Lookups are cached in the process (``apikeys.keycache``) and checked against a generation in
Redis within the rate limiter's one round trip: revocation, expiry, suspension and plan changes
made by any process are still seen by the very next request in every process.
"""

from __future__ import annotations

from typing import Any

from django.db import DatabaseError
from django.http import HttpRequest
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request

from apikeys import keycache, keys, ratelimit
from apikeys.models import Account, ApiKey
from petstore.errors import ServiceUnavailable

_OUTCOME_ATTR = "_petstore_api_key"
_GENERATION_ATTR = "_petstore_key_generation"

# What authenticate_request found: a usable key, a failure to raise in the view, or nothing.
Outcome = ApiKey | exceptions.APIException | None


def _bearer_token(request: HttpRequest) -> str | None:
    header = request.META.get("HTTP_AUTHORIZATION", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip()


def authenticate_request(request: HttpRequest) -> Outcome:
    """Find the request's API key, once; later calls return the first outcome."""
    if hasattr(request, _OUTCOME_ATTR):
        return getattr(request, _OUTCOME_ATTR)
    try:
        outcome = _lookup(request)
    except DatabaseError as exc:
        # Answered as 503 by the view; the middleware meanwhile limits the caller by address.
        outcome = ServiceUnavailable()
        outcome.__cause__ = exc
    setattr(request, _OUTCOME_ATTR, outcome)
    return outcome


def _lookup(request: HttpRequest) -> Outcome:
    token = _bearer_token(request)
    if token is None:
        return None
    if not token:
        return exceptions.AuthenticationFailed("The bearer token is empty.")
    if not keys.is_well_formed(token):
        # Refused on its shape and checksum alone: no database query for made-up keys.
        return exceptions.AuthenticationFailed("This is not a valid API key.")
    now = timezone.now()
    digest = keys.digest(token)
    cached = keycache.get(digest)
    if cached is not None and cached.api_key.refusal_reason(now) is None:
        setattr(request, _GENERATION_ATTR, cached.generation)
        api_key: ApiKey | None = cached.api_key
    else:
        # Read the generation first: a change committed after it makes this lookup stale.
        generation = ratelimit.key_generation()
        api_key = ApiKey.objects.for_digest(digest)
        if api_key is not None and generation is not None:
            keycache.put(digest, api_key, generation)
            setattr(request, _GENERATION_ATTR, generation)
    if api_key is None:
        return exceptions.AuthenticationFailed("This API key is not recognised.")
    reason = api_key.refusal_reason(now)
    if reason is not None:
        return exceptions.AuthenticationFailed(reason)
    api_key.touch(now)
    return api_key


def key_generation(request: HttpRequest) -> str:
    """The key generation the request's key was read under, if it came from the key cache."""
    return getattr(request, _GENERATION_ATTR, "")


def forget(request: HttpRequest) -> None:
    """Drop what authenticate_request found, so that the next call looks the key up again."""
    for attr in (_OUTCOME_ATTR, _GENERATION_ATTR):
        if hasattr(request, attr):
            delattr(request, attr)


def looked_up_key(request: HttpRequest) -> ApiKey | None:
    """The request's valid key if authenticate_request already found one; never looks it up."""
    outcome = getattr(request, _OUTCOME_ATTR, None)
    return outcome if isinstance(outcome, ApiKey) else None


def authenticated_key(request: HttpRequest) -> ApiKey | None:
    outcome = authenticate_request(request)
    return outcome if isinstance(outcome, ApiKey) else None


def caller_account(request: Request) -> Account:
    """The account of an authenticated API request (the views require one)."""
    account = request.user
    if not isinstance(account, Account):
        raise exceptions.NotAuthenticated()
    return account


class BearerKeyAuthentication(BaseAuthentication):
    """``Authorization: Bearer <key>``; the request's user is the key's Account."""

    def authenticate(self, request: Request) -> tuple[Account, ApiKey] | None:
        outcome = authenticate_request(request._request)
        if isinstance(outcome, exceptions.APIException):
            raise outcome
        if outcome is None:
            return None
        return outcome.account, outcome

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
