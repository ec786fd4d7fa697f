"""The lists' filters: accounts by state and by recent usage, keys by state, bans by state."""

from __future__ import annotations

from typing import Any, cast

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from apikeys import usage
from apikeys.models import ApiKeyQuerySet, Ban, BanQuerySet, KeyState


class SuspendedFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("active", "Active"), ("suspended", "Suspended")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "active":
            return queryset.filter(suspended_at__isnull=True)
        if self.value() == "suspended":
            return queryset.filter(suspended_at__isnull=False)
        return queryset


class NearLimitFilter(admin.SimpleListFilter):
    """Upgrade candidates: accounts that used most of their daily limit on a recent day."""

    title = "usage"
    parameter_name = "usage"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            (
                "near-limit",
                f"Near their limit (≥ {usage.NEAR_LIMIT_PERCENT}% on any of "
                f"the last {usage.RECENT_DAYS} days)",
            ),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "near-limit":
            # peak_share: annotated by AccountAdmin.get_queryset (apikeys.usage).
            return queryset.filter(peak_share__gte=usage.NEAR_LIMIT_PERCENT)
        return queryset


class KeyStateFilter(admin.SimpleListFilter):
    """Keys by ``ApiKey.state``, whose precedence the model's ``in_state`` keeps."""

    title = "state"
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(state.value, str(state.label)) for state in KeyState]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        state = self.value()
        if state is None or state not in KeyState.values:
            return queryset
        return cast(ApiKeyQuerySet, queryset).in_state(state, timezone.now())


class BanStateFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("current", "Current"), ("past", "Ended or lifted")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        now = timezone.now()
        if self.value() == "current":
            return cast(BanQuerySet, queryset).current(now)
        if self.value() == "past":
            return queryset.exclude(pk__in=Ban.objects.current(now).values("pk"))
        return queryset
