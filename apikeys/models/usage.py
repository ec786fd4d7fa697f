"""Each account's requests per key and UTC day, rolled up from Redis."""

from __future__ import annotations

from datetime import date

from django.db import models

from apikeys.models.accounts import Account
from apikeys.models.api_keys import ApiKey


class DailyUsageQuerySet(models.QuerySet["DailyUsage"]):
    def between(self, first: date, last: date) -> DailyUsageQuerySet:
        return self.filter(day__gte=first, day__lte=last)


class DailyUsage(models.Model):
    """One key's requests on one UTC day, copied from the limiter's tallies in Redis by the
    roll-up (``apikeys.usage``); an account's day is the sum of its keys'. Days without
    requests have no row.

    ``epoch`` names the life of the Redis hash the counts came from, and the ``*_base`` columns
    hold what earlier lives had counted that day, so that a Redis that restarts empty mid-day
    adds to the day instead of replacing it.
    """

    day = models.DateField()
    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="daily_usage")
    api_key = models.ForeignKey(ApiKey, on_delete=models.CASCADE, related_name="daily_usage")
    admitted = models.PositiveBigIntegerField(default=0)
    refused = models.PositiveBigIntegerField(default=0, help_text="Refused: rate limited.")
    banned = models.PositiveBigIntegerField(default=0, help_text="Refused: the key was banned.")
    # The account's limits that day, as the limiter recorded them with its tallies, by window
    # name ({"minute": 60, "day": 1000}): a window added since is not in an older day's.
    limits = models.JSONField(default=dict)
    epoch = models.CharField(max_length=32)
    admitted_base = models.PositiveBigIntegerField(default=0)
    refused_base = models.PositiveBigIntegerField(default=0)
    banned_base = models.PositiveBigIntegerField(default=0)
    rolled_up_at = models.DateTimeField()

    objects = DailyUsageQuerySet.as_manager()

    class Meta:
        ordering = ("day", "api_key")
        verbose_name_plural = "daily usage"
        constraints = [
            models.UniqueConstraint(fields=("day", "api_key"), name="daily_usage_one_per_key_day")
        ]
        indexes = [models.Index(fields=("account", "day"), name="daily_usage_account_day")]

    def __str__(self) -> str:
        return f"{self.api_key_id} on {self.day}: {self.admitted} admitted"
