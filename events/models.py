from __future__ import annotations

import secrets

from django.db import models
from django.utils import timezone

from events.types import event_type_choices

# How long events are kept, and listed.
KEPT_DAYS = 30


def new_event_id() -> str:
    """``evt_`` and 26 random hex digits: unique without asking the database."""
    return "evt_" + secrets.token_hex(13)


class Event(models.Model):
    uid = models.CharField("id", max_length=30, unique=True, default=new_event_id, editable=False)
    type = models.CharField(max_length=40, choices=event_type_choices)
    # The account that alone may see it; None: every account (pet events).
    account = models.ForeignKey(
        "apikeys.Account", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    data = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)
    # Its place in the feed, given once it has committed (events.services.sequence); None
    # until then, and not listed.
    position = models.BigIntegerField(null=True, blank=True, editable=False)
    # Whether its deliveries to webhook endpoints have been made (the webhooks app).
    fanned_out = models.BooleanField(default=False)
    # An example a partner asked to be sent to one endpoint (testWebhookEndpoint): delivered
    # there alone, never placed in the feed.
    test = models.BooleanField(db_default=False, editable=False)

    class Meta:
        ordering = ("position",)
        constraints = [
            models.UniqueConstraint(fields=("position",), name="event_position_unique"),
        ]
        indexes = [
            # A page of the feed reads each type from an index in the feed's order, so that a
            # rare type costs what a common one does: every account's events by type…
            models.Index(
                fields=("type", "position"),
                name="event_shared_feed_idx",
                condition=models.Q(account__isnull=True, position__isnull=False),
            ),
            # …and an account's own by account and type.
            models.Index(
                fields=("account", "type", "position"),
                name="event_own_feed_idx",
                condition=models.Q(account__isnull=False, position__isnull=False),
            ),
            models.Index(
                fields=("id",),
                name="event_unplaced_idx",
                condition=models.Q(position__isnull=True, test=False),
            ),
            models.Index(fields=("created_at",), name="event_created_idx"),
            models.Index(
                fields=("id",), name="event_unsent_idx", condition=models.Q(fanned_out=False)
            ),
        ]

    def __str__(self) -> str:
        return f"{self.type} {self.uid}"
