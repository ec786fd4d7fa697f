"""Bans the rate limiter put in force, as account managers see and lift them."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.utils import timezone

if TYPE_CHECKING:
    pass

from apikeys.models.accounts import Account
from apikeys.models.api_keys import ApiKey


class BanQuerySet(models.QuerySet["Ban"]):
    def current(self, now: datetime) -> BanQuerySet:
        """Bans in force at ``now``: not lifted, not yet over (as ``Ban.in_force``)."""
        return self.filter(lifted_at__isnull=True, ends_at__gt=now)


class Ban(models.Model):
    """A key that kept calling while limited is refused until ``ends_at``, unless lifted."""

    api_key = models.ForeignKey(ApiKey, on_delete=models.CASCADE, related_name="bans")
    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="bans")
    started_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    reason = models.CharField(max_length=255)
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    objects = BanQuerySet.as_manager()

    class Meta:
        ordering = ("-started_at",)

    def __str__(self) -> str:
        return f"Ban of {self.api_key} until {self.ends_at:%Y-%m-%d %H:%M} UTC"

    def in_force(self, now: datetime) -> bool:
        return self.lifted_at is None and self.ends_at > now

    @property
    def is_active(self) -> bool:
        return self.in_force(timezone.now())
