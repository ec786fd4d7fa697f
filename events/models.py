from __future__ import annotations

import secrets

from django.db import models
from django.db.models.expressions import Func
from django.utils import timezone

from events.types import EventType

# How long events are kept, and listed.
KEPT_DAYS = 30


def new_event_id() -> str:
    """``evt_`` and 26 random hex digits: unique without asking the database."""
    return "evt_" + secrets.token_hex(13)


class CurrentTransaction(Func):
    """The writing transaction's id (PostgreSQL's ``pg_current_xact_id()``), by which the
    feed knows which events no transaction still in flight can precede; 0 elsewhere, where
    one writer at a time commits in id order (SQLite)."""

    output_field = models.BigIntegerField()
    template = "0"

    def as_postgresql(self, compiler, connection, **extra_context):
        return "(pg_current_xact_id()::text::bigint)", []


class Event(models.Model):
    uid = models.CharField("id", max_length=30, unique=True, default=new_event_id, editable=False)
    type = models.CharField(max_length=40, choices=EventType.choices)
    # The account that alone may see it; None: every account (pet events).
    account = models.ForeignKey(
        "apikeys.Account", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    data = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)
    transaction = models.BigIntegerField(db_default=CurrentTransaction(), editable=False)
    # Whether its deliveries to webhook endpoints have been made (the webhooks app).
    fanned_out = models.BooleanField(default=False)

    class Meta:
        ordering = ("transaction", "id")
        indexes = [
            # The feed's order: by writing transaction, then id (events.selectors).
            models.Index(fields=("transaction", "id"), name="event_feed_idx"),
            models.Index(fields=("created_at",), name="event_created_idx"),
            models.Index(
                fields=("id",), name="event_unsent_idx", condition=models.Q(fanned_out=False)
            ),
        ]

    def __str__(self) -> str:
        return f"{self.type} {self.uid}"
