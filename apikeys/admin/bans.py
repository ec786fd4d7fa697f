"""Bans: those the rate limiter put in force, listed and lifted."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from apikeys import services
from apikeys.actors import actor_of
from apikeys.admin.display import prefix_cell
from apikeys.admin.filters import BanStateFilter
from apikeys.models import Ban
from petstore.admin import SavesItsFieldsOnly, badge, clipped, short_date


@admin.register(Ban)
class BanAdmin(SavesItsFieldsOnly):
    list_display = (
        "key",
        "state",
        "account_name",
        "ends",
        "started",
        "lifted",
        "lifted_by",
    )
    list_filter = (BanStateFilter,)
    search_fields = ("api_key__prefix", "account__name")
    list_select_related = ("api_key", "account", "lifted_by")
    readonly_fields = (
        "api_key",
        "account",
        "started_at",
        "ends_at",
        "reason",
        "lifted_at",
        "lifted_by",
    )
    actions = ("lift",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # bans are made by the rate limiter

    # A deleted ban would leave no trace of when the key was refused and who let it back in:
    # "Lift selected bans" ends one and is recorded in the trail.
    def has_delete_permission(self, request: HttpRequest, obj: Ban | None = None) -> bool:
        return False

    @admin.display(description="key", ordering="api_key__prefix")
    def key(self, ban: Ban) -> str:
        return prefix_cell(ban.api_key, tooltip=str(ban.api_key))

    @admin.display(description="state", ordering="ends_at")
    def state(self, ban: Ban) -> str:
        if ban.lifted_at is not None:
            return badge("lifted", works=True)
        if ban.is_active:
            return badge("in force", works=False, tooltip="the key is refused until it ends")
        return badge("ended", works=True)

    @admin.display(description="account", ordering="account__name")
    def account_name(self, ban: Ban) -> str:
        return clipped(ban.account.name)

    @admin.display(description="ends", ordering="ends_at")
    def ends(self, ban: Ban) -> str:
        return short_date(ban.ends_at)

    @admin.display(description="started", ordering="started_at")
    def started(self, ban: Ban) -> str:
        return short_date(ban.started_at)

    @admin.display(description="lifted", ordering="lifted_at")
    def lifted(self, ban: Ban) -> str:
        return short_date(ban.lifted_at)

    @admin.action(description="Lift selected bans", permissions=["change"])
    def lift(self, request: HttpRequest, queryset: QuerySet[Ban]) -> None:
        lifted, by = 0, actor_of(request)
        for ban in queryset.filter(lifted_at__isnull=True):
            services.ban_lift(ban=ban, lifted_by=request.user, by=by)
            self.log_change(request, ban, "Lifted")
            lifted += 1
        self.message_user(request, f"{lifted} ban(s) lifted; those keys work again now.")
