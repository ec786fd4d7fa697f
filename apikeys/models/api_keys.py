"""API keys: what each may do, from where, and whether it may be used now."""

from __future__ import annotations

import hmac
import operator
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from functools import reduce
from typing import NamedTuple

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.functional import cached_property

from apikeys import keys
from apikeys.models.accounts import Account
from apikeys.origins import normalize_origins
from petstore.scopes import PUBLISHABLE_SCOPES, Scope

LAST_USED_RESOLUTION = timedelta(minutes=1)


class KeyKind(models.TextChoices):
    SECRET = "secret", "Secret (servers only)"
    PUBLISHABLE = "publishable", "Publishable (read-only, for web pages)"


ALL_SCOPES: tuple[str, ...] = tuple(Scope.values)
# What a secret key gets unless told otherwise: every scope but adding categories, which
# shapes every partner's browsing and is given by hand.
SECRET_DEFAULT_SCOPES: tuple[str, ...] = tuple(
    scope for scope in ALL_SCOPES if scope != Scope.CATEGORIES_WRITE
)
# What a publishable key gets unless told otherwise: a widget shows animals.
PUBLISHABLE_DEFAULT_SCOPES: tuple[str, ...] = (Scope.PETS_READ.value,)
_REFUSALS = {
    "revoked": "This API key has been revoked.",
    "expired": "This API key has expired.",
    "suspended": "This API key's account is suspended.",
}


def _holds_none_of(scopes: Iterable[str]) -> Q:
    """The rows whose scopes include none of ``scopes`` (no scope's name is within another's)."""
    return reduce(operator.and_, (~Q(scopes__contains=scope) for scope in sorted(scopes)))


class ApiKeyQuerySet(models.QuerySet["ApiKey"]):
    def active(self, now: datetime) -> ApiKeyQuerySet:
        """Keys usable at ``now``: the rows for which ``ApiKey.state(now)`` is ``active``."""
        return self.in_state(KeyState.ACTIVE, now)

    def in_state(self, state: str, now: datetime) -> ApiKeyQuerySet:
        """The rows for which ``ApiKey.state(now)`` is ``state``."""
        earlier = Q()
        for refusal in _PRECEDENCE:
            if refusal.state == state:
                return self.filter(earlier & refusal.condition(now))
            earlier &= ~refusal.condition(now)
        if state != KeyState.ACTIVE:
            raise ValueError(f"{state!r} is not a key state")
        return self.filter(earlier)

    def for_digest(self, wanted: str) -> ApiKey | None:
        """The key with this SHA-256 digest, with its account and plan, or None."""
        found = self.select_related("account__plan").filter(digest=wanted).first()
        # The digest was the lookup key, so this only guards against a collation surprise; it
        # is constant-time all the same.
        if found is None or not hmac.compare_digest(found.digest, wanted):
            return None
        return found

    def touch(self, key_ids: list[int], now: datetime) -> None:
        """Record the keys' use at ``now``, unless it was recorded within LAST_USED_RESOLUTION."""
        stale_before = now - LAST_USED_RESOLUTION
        self.filter(
            Q(last_used_at__isnull=True) | Q(last_used_at__lte=stale_before), pk__in=key_ids
        ).update(last_used_at=now)

    def matching(self, key_or_prefix: str) -> ApiKeyQuerySet:
        """Keys named by a full key, or by their display prefix (for the command line)."""
        if keys.is_well_formed(key_or_prefix):
            return self.filter(digest=keys.digest(key_or_prefix))
        return self.filter(prefix=key_or_prefix)


class ApiKey(models.Model):
    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="api_keys")
    name = models.CharField(max_length=255, blank=True)
    prefix = models.CharField(max_length=32, db_index=True, editable=False)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True, editable=False)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        editable=False,
    )
    # The key's text says its kind (petstore_pub_…), so the kind never changes after issue.
    kind = models.CharField(
        max_length=16, choices=KeyKind.choices, default=KeyKind.SECRET, editable=False
    )
    # Space-separated, sorted (as OAuth writes scopes): plain text works the same on SQLite and
    # PostgreSQL, and lets the database itself refuse a publishable key with a write scope.
    scopes = models.CharField(max_length=255, default="", blank=True)
    # Space-separated normalized origins (normalize_origin); publishable keys only.
    allowed_origins = models.TextField(default="", blank=True)

    objects = ApiKeyQuerySet.as_manager()

    class Meta:
        ordering = ("id",)
        verbose_name = "API key"
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=KeyKind.values), name="apikey_kind_known"),
            models.CheckConstraint(
                condition=Q(kind=KeyKind.SECRET)
                | _holds_none_of(set(ALL_SCOPES) - PUBLISHABLE_SCOPES),
                name="apikey_publishable_scopes",
            ),
            models.CheckConstraint(
                condition=Q(kind=KeyKind.PUBLISHABLE) | Q(allowed_origins=""),
                name="apikey_origins_only_for_publishable",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.name})" if self.name else f"{self.prefix}…"

    @property
    def is_publishable(self) -> bool:
        return self.kind == KeyKind.PUBLISHABLE

    # Cached on the instance: the key cache (apikeys.keyring) keeps one instance per key and
    # replaces it, never edits it, when the row changes.
    @cached_property
    def scope_set(self) -> frozenset[str]:
        return frozenset(self.scopes.split())

    @cached_property
    def origin_set(self) -> frozenset[str]:
        return frozenset(self.allowed_origins.split())

    @property
    def scope_list(self) -> list[str]:
        return sorted(self.scopes.split())

    @property
    def origin_list(self) -> list[str]:
        return self.allowed_origins.split()

    def set_scopes(self, scopes: Iterable[str]) -> None:
        self.scopes = " ".join(sorted(set(scopes)))
        self.__dict__.pop("scope_set", None)

    def set_origins(self, origins: Iterable[str]) -> None:
        """Store ``origins``, normalized; raises ValidationError for one that is not an origin."""
        self.allowed_origins = " ".join(normalize_origins(origins))
        self.__dict__.pop("origin_set", None)

    def clean(self) -> None:
        super().clean()
        self.__dict__.pop("scope_set", None)
        self.__dict__.pop("origin_set", None)
        errors: dict[str, list[str]] = {}
        scopes = self.scope_set
        if unknown := sorted(scopes - set(ALL_SCOPES)):
            errors.setdefault("scopes", []).append(f"Unknown scopes: {', '.join(unknown)}.")
        if not scopes:
            errors.setdefault("scopes", []).append("A key needs at least one scope.")
        if self.is_publishable:
            if refused := sorted(scopes - PUBLISHABLE_SCOPES - set(unknown)):
                errors.setdefault("scopes", []).append(
                    "A publishable key is read-only and holds no webhooks scope: it cannot have "
                    f"{', '.join(refused)}. Issue a secret key for these."
                )
            if not self.origin_set:
                errors.setdefault("allowed_origins", []).append(
                    "A publishable key needs at least one web origin it may be used from."
                )
        elif self.origin_set:
            errors.setdefault("allowed_origins", []).append(
                "Only publishable keys have origins: a secret key belongs on a server, never "
                "in a web page."
            )
        if errors:
            raise ValidationError(errors)

    @property
    def facts(self) -> KeyFacts:
        return KeyFacts(
            self.revoked_at is not None, self.account.suspended_at is not None, self.expires_at
        )

    def state(self, now: datetime) -> str:
        """``active``, or why the key is refused: ``revoked``, ``expired``, ``suspended``."""
        return key_state(self.facts, now)


class KeyFacts(NamedTuple):
    """What a key's state follows from, as the row has it and as its record keeps it
    (``apikeys.records``)."""

    revoked: bool
    suspended: bool
    expires_at: datetime | None


def key_state(facts: KeyFacts, now: datetime) -> str:
    for refusal in _PRECEDENCE:
        if refusal.applies(facts, now):
            return refusal.state.value
    return KeyState.ACTIVE.value


def refusal_message(state: str) -> str | None:
    """What a refused key is told, None for an active one."""
    return _REFUSALS.get(state)


class KeyState(models.TextChoices):
    """What ``ApiKey.state`` says of a key: usable, or the reason it is refused."""

    ACTIVE = "active", "Active"
    REVOKED = "revoked", "Revoked"
    EXPIRED = "expired", "Expired"
    SUSPENDED = "suspended", "Account suspended"


class _Refusal(NamedTuple):
    """A reason to refuse a key: as a test of a loaded key, and as a database condition."""

    state: KeyState
    applies: Callable[[KeyFacts, datetime], bool]
    condition: Callable[[datetime], Q]


# The precedence, written once: a key is in the first state here that applies to it, so that
# ApiKey.state and ApiKeyQuerySet.in_state (the admin's filter) cannot disagree.
_PRECEDENCE = (
    _Refusal(
        KeyState.REVOKED,
        lambda key, now: key.revoked,
        lambda now: Q(revoked_at__isnull=False),
    ),
    _Refusal(
        KeyState.EXPIRED,
        lambda key, now: key.expires_at is not None and key.expires_at <= now,
        lambda now: Q(expires_at__lte=now),
    ),
    _Refusal(
        KeyState.SUSPENDED,
        lambda key, now: key.suspended,
        lambda now: Q(account__suspended_at__isnull=False),
    ),
)
