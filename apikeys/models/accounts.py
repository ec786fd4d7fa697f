"""Plans and the accounts on them: who calls the API, and how much."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from apikeys.windows import WINDOWS, Limits


def custom_limits_errors(plan: Plan, values: dict[str, int | None]) -> dict[str, str]:
    """What is wrong with an account's own limits on ``plan`` (``values``, by each window's
    ``custom_field``), by field: an Enterprise account sets every window's limit, each
    positive; other plans' limits are the plan's, and what the account holds is not read."""
    if not plan.has_custom_limits:
        return {}
    errors = {}
    for window in WINDOWS:
        value = values.get(window.custom_field)
        if value is None:
            errors[window.custom_field] = "An Enterprise account needs a limit in every window."
        elif value < 1:
            errors[window.custom_field] = "Limits must be positive."
    return errors


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
                condition=Q(**{f"{w.custom_field}__isnull": True})
                | Q(**{f"{w.custom_field}__gt": 0}),
                name=f"account_custom_per_{w.name}_positive",
            )
            for w in WINDOWS
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
        values = {w.custom_field: getattr(self, w.custom_field) for w in WINDOWS}
        errors = custom_limits_errors(self.plan, values)
        if errors:
            raise ValidationError(errors)

    @property
    def limits(self) -> Limits:
        source = self if self.plan.has_custom_limits else self.plan
        fields = [w.custom_field if source is self else w.plan_field for w in WINDOWS]
        values = [getattr(source, field) for field in fields]
        if None in values:
            # An Enterprise account saved without limits (clean() prevents it in the admin and
            # the command); refuse everything rather than allow everything.
            return Limits.of()
        return Limits(values)
