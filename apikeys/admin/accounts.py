"""Accounts: the list a manager decides from, the account page, suspending and reactivating."""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib import admin
from django.contrib.admin.options import InlineModelAdmin
from django.db.models import Count, Max, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html

from apikeys import services, usage
from apikeys.actors import actor_of
from apikeys.admin.account_keys import AccountKeyViews
from apikeys.admin.account_usage import AccountUsageViews
from apikeys.admin.filters import NearLimitFilter, SuspendedFilter
from apikeys.admin.keys import ApiKeyInline
from apikeys.models import Account
from apikeys.windows import WINDOWS
from petstore.admin import badge, clipped, short_date


@admin.register(Account)
class AccountAdmin(AccountUsageViews, AccountKeyViews):
    # What a manager decides on first (state, plan), then usage, then dates; the email sits
    # under the name rather than in a column of its own, to leave the width to the numbers.
    list_display = (
        "name_and_email",
        "is_active",
        "plan",
        "key_count",
        *AccountUsageViews.window_columns,
        "refused_today",
        "week",
        "peak_day",
        "last_used",
    )
    list_filter = ("plan", SuspendedFilter, NearLimitFilter)
    search_fields = ("name", "email")
    list_select_related = ("plan",)
    readonly_fields = ("suspended_at", "created_at", "usage_now")
    fieldsets = (
        (None, {"fields": ("name", "email")}),
        (
            "Plan",
            {
                "fields": ("plan", *(w.custom_field for w in WINDOWS)),
                "description": "Custom limits: Enterprise only, which needs one in every window.",
            },
        ),
        ("State", {"fields": ("suspended_at", "created_at", "usage_now")}),
    )
    # And its webhook endpoints: webhooks.admin adds them.
    inlines: ClassVar[tuple[type[InlineModelAdmin[Any, Any]], ...]] = (ApiKeyInline,)
    actions = ("suspend", "reactivate")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Account]:
        accounts = (
            super()
            .get_queryset(request)
            .annotate(key_total=Count("api_keys"), last_use=Max("api_keys__last_used_at"))
        )
        return usage.with_recent_usage(accounts)

    @admin.display(description="name", ordering="name")
    def name_and_email(self, account: Account) -> str:
        if not account.email:
            return clipped(account.name)
        return format_html(
            '{}<small class="clipped">{}</small>', clipped(account.name), account.email
        )

    @admin.display(description="keys", ordering="key_total")
    def key_count(self, account: Any) -> int:
        return account.key_total

    @admin.display(description="last use", ordering="last_use")
    def last_used(self, account: Any) -> str:
        return short_date(account.last_use)

    @admin.display(description="state", ordering="suspended_at")
    def is_active(self, account: Account) -> str:
        if account.suspended_at is None:
            return badge("active", works=True)
        return badge(
            "suspended",
            works=False,
            tooltip=f"suspended since {account.suspended_at:%Y-%m-%d %H:%M} UTC: every key refused",
        )

    # Saved and deleted through the services, which record plan and limit changes in the trail.
    def save_model(self, request: HttpRequest, obj: Account, form: Any, change: bool) -> None:
        services.account_save(account=obj, by=actor_of(request))

    def delete_model(self, request: HttpRequest, obj: Account) -> None:
        services.account_delete(account=obj, by=actor_of(request))

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Account]) -> None:
        by = actor_of(request)
        for account in queryset:
            services.account_delete(account=account, by=by)

    @admin.action(description="Suspend selected accounts (all their keys stop working)")
    def suspend(self, request: HttpRequest, queryset: QuerySet[Account]) -> None:
        by = actor_of(request)
        for account in queryset:
            services.account_suspend(account=account, by=by)
            self.log_change(request, account, "Suspended")
        self.message_user(request, f"{queryset.count()} account(s) suspended.")

    @admin.action(description="Reactivate selected accounts")
    def reactivate(self, request: HttpRequest, queryset: QuerySet[Account]) -> None:
        by = actor_of(request)
        for account in queryset:
            services.account_reactivate(account=account, by=by)
            self.log_change(request, account, "Reactivated")
        self.message_user(request, f"{queryset.count()} account(s) reactivated.")
