"""Plans: their limits, seen and changed; the four plans themselves are seeded."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from apikeys import services
from apikeys.actors import actor_of
from apikeys.models import Plan
from apikeys.windows import WINDOWS


@admin.register(Plan)
class PlanAdmin(admin.ModelAdmin):
    list_display = ("name", "code", *(w.plan_field for w in WINDOWS))
    readonly_fields = ("code",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # the four plans are seeded; Enterprise limits live on accounts

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Plan, form: Any, change: bool) -> None:
        # Through the service, which records a change of the plan's limits in the trail.
        services.plan_save(plan=obj, by=actor_of(request))
