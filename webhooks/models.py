from __future__ import annotations

import base64
import secrets

from django.db import models
from django.utils import timezone

# At most this many endpoints per account.
MAX_ENDPOINTS = 10


def new_secret() -> str:
    """``whsec_`` and the base64 of 32 random bytes, as Standard Webhooks writes secrets."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


class Endpoint(models.Model):
    account = models.ForeignKey(
        "apikeys.Account", on_delete=models.CASCADE, related_name="webhook_endpoints"
    )
    url = models.URLField("URL", max_length=2000)
    events = models.JSONField(default=list, help_text="The event types it is sent.")
    secret = models.CharField(max_length=100, default=new_secret, editable=False)
    enabled = models.BooleanField(default=True)
    disabled_reason = models.CharField(max_length=200, blank=True, editable=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ("id",)
        verbose_name = "webhook endpoint"

    def __str__(self) -> str:
        return self.url

    def wants(self, kind: str) -> bool:
        return kind in self.events


class DeliveryState(models.TextChoices):
    PENDING = "pending", "Pending"
    DELIVERED = "delivered", "Delivered"
    FAILED = "failed", "Failed"


class Delivery(models.Model):
    """One event for one endpoint, and how its tries went."""

    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="deliveries")
    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="+")
    state = models.CharField(
        max_length=16, choices=DeliveryState.choices, default=DeliveryState.PENDING
    )
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    # While a worker has it: no other takes it before then.
    leased_until = models.DateTimeField(null=True, blank=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_status = models.PositiveIntegerField(null=True, blank=True)  # the HTTP status
    last_error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("-id",)
        verbose_name_plural = "deliveries"
        constraints = [
            models.UniqueConstraint(fields=("endpoint", "event"), name="delivery_once"),
        ]
        indexes = [
            models.Index(
                fields=("next_attempt_at",),
                name="delivery_due_idx",
                condition=models.Q(state=DeliveryState.PENDING),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} to {self.endpoint}"
