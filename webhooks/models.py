from __future__ import annotations

import base64
import secrets
from datetime import datetime

from django.db import models
from django.utils import timezone

# At most this many endpoints per account.
MAX_ENDPOINTS = 10
# The longest a rotated secret goes on signing beside its successor.
MAX_SECRET_OVERLAP_SECONDS = 86400
# The most secrets a delivery is signed with: the current one and the newest rotated away
# still in their overlap (a signature header of a bounded size).
MAX_SIGNING_SECRETS = 4


def new_secret() -> str:
    """``whsec_`` and the base64 of 32 random bytes, as Standard Webhooks writes secrets."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


class Endpoint(models.Model):
    account = models.ForeignKey(
        "apikeys.Account", on_delete=models.CASCADE, related_name="webhook_endpoints"
    )
    url = models.URLField("URL", max_length=2000)
    events = models.JSONField(default=list, help_text="The event types it is sent.")
    description = models.CharField(max_length=200, blank=True, help_text="The partner's note.")
    secret = models.CharField(max_length=100, default=new_secret, editable=False)
    # After a rotation with overlap, the secret it replaced signs beside it until it expires, so
    # that a receiver can switch without refusing a delivery.
    previous_secret = models.CharField(max_length=100, blank=True, editable=False)
    previous_secret_expires_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Those rotated away before it whose overlap had not ended, newest first, each as
    # ``[secret, expires_at ISO 8601]``: they sign too until it ends (``secrets_at``).
    older_secrets = models.JSONField(default=list, blank=True, editable=False)
    enabled = models.BooleanField(default=True)
    disabled_reason = models.CharField(max_length=200, blank=True, editable=False)
    # Disabled by an account manager: only staff enable it again, never the partner's API.
    disabled_by_staff = models.BooleanField(default=False, editable=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # The circuit breaker (webhooks.services.record): failed attempts in a row, since when, and
    # until when nothing is sent (after too many, or as the receiver's Retry-After asked).
    failures = models.PositiveIntegerField(default=0, editable=False)
    failing_since = models.DateTimeField(null=True, blank=True, editable=False)
    paused_until = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ("id",)
        verbose_name = "webhook endpoint"
        # Fan-out finds the endpoints that list a type by a GIN index on ``events``, made on
        # PostgreSQL only (webhooks.0003): the ORM's index cannot say so.

    def __str__(self) -> str:
        return self.url

    def rotated_at(self, now: datetime) -> list[tuple[str, datetime]]:
        """The secrets rotated away that still sign at ``now``, newest first, with when each
        stops: every one whose overlap has not ended, up to ``MAX_SIGNING_SECRETS`` in all."""
        rotated = [(self.previous_secret, self.previous_secret_expires_at)]
        rotated += [(secret, datetime.fromisoformat(until)) for secret, until in self.older_secrets]
        signing = [(s, until) for s, until in rotated if s and until is not None and until > now]
        return signing[: MAX_SIGNING_SECRETS - 1]

    def secrets_at(self, now: datetime) -> list[str]:
        """The secrets a delivery signed at ``now`` carries a signature of: the current one, and
        those it replaced until each expires."""
        return [self.secret, *(secret for secret, _ in self.rotated_at(now))]

    def state_at(self, now: datetime) -> EndpointState:
        if not self.enabled:
            return EndpointState.DISABLED
        if self.paused_until is not None and self.paused_until > now:
            return EndpointState.PAUSED
        return EndpointState.HEALTHY

    @property
    def state(self) -> EndpointState:
        return self.state_at(timezone.now())

    @property
    def pause_ends(self) -> datetime | None:
        """When a paused endpoint is tried again; None unless it is paused."""
        return self.paused_until if self.state == EndpointState.PAUSED else None

    @property
    def disabled_because(self) -> str | None:
        """Why it is disabled; None unless it is."""
        return self.disabled_reason if not self.enabled else None


class StaffDisabledUrl(models.Model):
    """A URL an account manager disabled an account's endpoint of: the account makes no
    endpoint for it, nor moves one to it, until staff lift it (enabling the endpoint lifts it
    too). Kept when the endpoint is deleted, so that deleting and making it again undoes
    nothing."""

    account = models.ForeignKey("apikeys.Account", on_delete=models.CASCADE, related_name="+")
    url = models.URLField("URL", max_length=2000)
    disabled_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ("-disabled_at",)
        verbose_name = "URL disabled by an account manager"
        constraints = [
            models.UniqueConstraint(fields=("account", "url"), name="staff_disabled_url_once")
        ]

    def __str__(self) -> str:
        return self.url


class EndpointState(models.TextChoices):
    HEALTHY = "healthy", "Healthy"
    PAUSED = "paused", "Paused: its receiver is failing, or asked us to wait"
    DISABLED = "disabled", "Disabled"


class DeliveryState(models.TextChoices):
    PENDING = "pending", "Pending"
    DELIVERED = "delivered", "Delivered"
    FAILED = "failed", "Failed"


class AttemptError(models.TextChoices):
    """Why an attempt was not delivered."""

    TIMEOUT = "timeout", "Timeout: no answer in time"
    CONNECTION = "connection", "Connection: refused, reset or unresolved"
    TLS = "tls", "TLS: the handshake or the certificate failed"
    STATUS = "status", "Status: answered other than 2xx"
    REDIRECT = "redirect", "Redirect: answered 3xx, which is not followed"
    ADDRESS = "address", "Address: not sent, the URL's address is refused"
    DISABLED = "disabled", "Disabled: not sent, the endpoint was disabled when the event happened"


# The most of a receiver's answer kept with its delivery.
RESPONSE_CHARS = 512


class Lane(models.IntegerChoices):
    """Which line a delivery waits in at its endpoint: the account's own events go ahead of the
    shared catalogue's, so that a shelter's import never holds up a partner's orders."""

    OWN = 0, "Own: the account's events (orders, usage, test sends)"
    CATALOGUE = 1, "Catalogue: every account's events (animals, categories)"


class Delivery(models.Model):
    """One event for one endpoint, and how its tries went."""

    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="deliveries")
    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="+")
    state = models.CharField(
        max_length=16, choices=DeliveryState.choices, default=DeliveryState.PENDING
    )
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    # While a worker has it, whatever else happens to it meanwhile (a retry, a recovery, its
    # endpoint disabled): no other takes it before then. Only the worker clears it.
    leased_until = models.DateTimeField(null=True, blank=True)
    # Which of the worker's runs holds it (webhooks.services.lease_due): its endpoint's places
    # in flight are counted in runs.
    run = models.BigIntegerField(null=True, blank=True, editable=False)
    # Set when it is made, from its event's account (webhooks.sql.fan_out): own events first.
    lane = models.PositiveSmallIntegerField(choices=Lane.choices, default=Lane.OWN, editable=False)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_status = models.PositiveIntegerField(null=True, blank=True)  # the HTTP status
    last_error = models.CharField(max_length=300, blank=True)
    last_error_kind = models.CharField(max_length=16, choices=AttemptError.choices, blank=True)
    last_duration_ms = models.PositiveIntegerField(null=True, blank=True)
    last_response = models.CharField(max_length=RESPONSE_CHARS, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("-id",)
        verbose_name_plural = "deliveries"
        constraints = [
            models.UniqueConstraint(fields=("endpoint", "event"), name="delivery_once"),
        ]
        indexes = [
            # An endpoint's deliveries, newest first (webhooks.selectors).
            models.Index(fields=("endpoint", "-id"), name="delivery_endpoint_listed_idx"),
            models.Index(
                fields=("next_attempt_at",),
                name="delivery_due_idx",
                condition=models.Q(state=DeliveryState.PENDING),
            ),
            # An endpoint's due deliveries, when its next is leased…
            models.Index(
                fields=("endpoint", "next_attempt_at"),
                name="delivery_endpoint_due_idx",
                condition=models.Q(state=DeliveryState.PENDING),
            ),
            # …its own events due, which a run of the catalogue's makes way for (a few rows)…
            models.Index(
                fields=("endpoint", "next_attempt_at"),
                name="delivery_own_due_idx",
                condition=models.Q(state=DeliveryState.PENDING, lane=Lane.OWN),
            ),
            # …and those it has in flight, whatever their state (webhooks.services.lease_due).
            models.Index(
                fields=("endpoint",),
                name="delivery_leased_idx",
                condition=models.Q(leased_until__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} to {self.endpoint}"

    @property
    def last_attempt(self) -> Delivery | None:
        """Itself, as the record of its last attempt; None before the first."""
        return self if self.last_attempt_at is not None else None

    @property
    def last_failure(self) -> AttemptError | None:
        """Why its last attempt was not delivered; None when it was, or before the first."""
        return AttemptError(self.last_error_kind) if self.last_error_kind else None


class ExampleSend(models.Model):
    """An example event queued to an endpoint, by ``test`` or by ``retry`` of a test delivery:
    kept a minute, to count them (webhooks.deliveries.TESTS_A_MINUTE)."""

    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="+")
    sent_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=("endpoint", "sent_at"), name="example_send_recent_idx")]

    def __str__(self) -> str:
        return f"An example event to {self.endpoint_id} at {self.sent_at}"
