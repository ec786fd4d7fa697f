from __future__ import annotations

from django.db import models
from django.utils import timezone


class IdempotencyRecord(models.Model):
    """The first answer to a POST sent with an ``Idempotency-Key``, replayed to its retries.

    Kept in the database, not in a process or the cache, so that a retry reaching another
    process, another host or a restarted service still finds it.
    """

    account = models.ForeignKey("apikeys.Account", on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of method, path and body.")
    status_code = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Empty while the first request is still in flight."
    )
    # The body as the client got it, JSON text: PostgreSQL's jsonb cannot hold every string JSON
    # can (an echoed "\u0000" in an error message, say).
    body = models.TextField(blank=True, default="")
    location = models.CharField(max_length=255, blank=True)
    # The shape of the answers when it was kept (petstore.representation): replayed only in it.
    shape = models.CharField(max_length=16, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=("account", "key"), name="idempotency_account_key"),
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.status_code or 'in flight'})"
