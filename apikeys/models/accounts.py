"""Plans and the accounts on them: who calls the API, and how much."""

from __future__ import annotations

from typing import NamedTuple

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q


class PlanCode(models.TextChoices):
    FREE = "free", "Free"
    PRO = "pro", "Pro"
    BUSINESS = "business", "Business"
    ENTERPRISE = "enterprise", "Enterprise"


class Plan(models.Model):
    """A price tier and its request limits. Enterprise has none of its own: see Account."""

    code = models.CharField(max_length=32, choices=PlanCode.choices, unique=True)
    name = models.CharField(max_length=64)
    requests_per_minute = models.PositiveIntegerField(null=True, blank=True)
    requests_per_day = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ("id",)

    def __str__(self) -> str:
        return self.name

    @property
    def has_custom_limits(self) -> bool:
        return self.code == PlanCode.ENTERPRISE


class Limits(NamedTuple):
    per_minute: int
    per_day: int


class Account(models.Model):
    """A customer: holds a plan and any number of keys. Limits are counted per account."""

    name = models.CharField(max_length=255)
    email = models.EmailField(blank=True)
    plan = models.ForeignKey(Plan, on_delete=models.PROTECT, related_name="accounts")
    custom_requests_per_minute = models.PositiveIntegerField(
        null=True, blank=True, help_text="Enterprise only: requests per minute."
    )
    custom_requests_per_day = models.PositiveIntegerField(
        null=True, blank=True, help_text="Enterprise only: requests per UTC day."
    )
    suspended_at = models.DateTimeField(
        null=True, blank=True, help_text="A suspended account's keys are all refused."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("id",)
        constraints = [
            models.CheckConstraint(
                condition=Q(custom_requests_per_minute__isnull=True)
                | Q(custom_requests_per_minute__gt=0),
                name="account_custom_per_minute_positive",
            ),
            models.CheckConstraint(
                condition=Q(custom_requests_per_day__isnull=True)
                | Q(custom_requests_per_day__gt=0),
                name="account_custom_per_day_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    # Lets DRF's IsAuthenticated accept the account as the request's user.
    is_authenticated = True

    @property
    def is_suspended(self) -> bool:
        return self.suspended_at is not None

    def clean(self) -> None:
        super().clean()
        if self.plan_id is None:
            return
        if self.plan.has_custom_limits:
            errors = {}
            for field in ("custom_requests_per_minute", "custom_requests_per_day"):
                value = getattr(self, field)
                if value is None:
                    errors[field] = "An Enterprise account needs both custom limits."
                elif value < 1:
                    errors[field] = "Limits must be positive."
            if errors:
                raise ValidationError(errors)

    @property
    def limits(self) -> Limits:
        if self.plan.has_custom_limits:
            per_minute, per_day = self.custom_requests_per_minute, self.custom_requests_per_day
        else:
            per_minute, per_day = self.plan.requests_per_minute, self.plan.requests_per_day
        if per_minute is None or per_day is None:
            # An Enterprise account saved without limits (clean() prevents it in the admin and
            # the command); refuse everything rather than allow everything.
            return Limits(per_minute=0, per_day=0)
        return Limits(per_minute=per_minute, per_day=per_day)
