"""An account's usage as the admin shows it: the live figures in the list (read once a page),
the recent totals and peak day, and on its page the charts and the CSV."""

from __future__ import annotations

import csv
from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import PermissionDenied
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.html import format_html

from apikeys import usage
from apikeys.limiter import Usage, account_usages
from apikeys.models import Account, ApiKey
from apikeys.windows import WINDOWS, WindowSpec

CHART_DAYS = 30


class LiveUsageChangeList(ChangeList):
    """The account list, with the live usage of every account on the page read in one go."""

    def get_results(self, request: HttpRequest) -> None:
        super().get_results(request)
        # result_list is the page's queryset: iterating it fills the cache the rows are drawn
        # from, so the figures stay on the very instances the columns are given.
        usages = account_usages([account.pk for account in self.result_list])
        for account in self.result_list:
            account.live_usage = usages[account.pk]


def live_usage(account: Any) -> Usage:
    """The usage read for the list's page, or, for an account shown alone, read now."""
    found = getattr(account, "live_usage", None)
    return found if found is not None else account_usages([account.pk])[account.pk]


def window_column(n: int, window: WindowSpec) -> Callable[[Account], str]:
    """The list's column of the ``n``-th window's count as it stands (``requests_today``)."""

    @admin.display(description=window.current)
    def column(account: Account) -> str:
        return str(live_usage(account).counts[n])

    column.__name__ = f"requests_{window.current.replace(' ', '_')}"
    return column


class AccountUsageViews(admin.ModelAdmin):
    """The usage columns, the charts on an account's page and its CSV (AccountAdmin's part)."""

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return LiveUsageChangeList

    # Each window's count as it stands, a column each (AccountAdmin.list_display).
    window_columns = tuple(window_column(n, window) for n, window in enumerate(WINDOWS))

    @admin.display(description="refused")
    def refused_today(self, account: Account) -> int:
        return live_usage(account).refused_today

    @admin.display(description="usage")
    def usage_now(self, account: Account) -> str:
        if account.pk is None:
            return "-"
        now, limits = live_usage(account), account.limits
        windows = [
            f"{count} of {limit} {w.current}"
            for w, limit, count in zip(WINDOWS, limits, now.counts, strict=True)
        ]
        return ", ".join([*windows, f"{now.refused_today} refused today"])

    @admin.display(description=f"last {usage.RECENT_DAYS} days", ordering="week_admitted")
    def week(self, account: Any) -> str:
        if not account.week_refused:
            return f"{account.week_admitted:,}"
        return format_html(
            '{}<br><small title="refused over a limit or while banned">{} refused</small>',
            f"{account.week_admitted:,}",
            f"{account.week_refused:,}",
        )

    # Accounts without requests count as the quietest, in either direction.
    @admin.display(description="peak day", ordering=F("peak_share").asc(nulls_first=True))
    def peak_day(self, account: Any) -> str:
        share = account.peak_share
        if share is None:
            return admin.site.empty_value_display
        near = share >= usage.NEAR_LIMIT_PERCENT
        return format_html(
            '<span class="peak{}" title="{}: {}% of that day\'s limit">{}{}%</span>',
            " peak-near" if near else "",
            account.peak_day,
            f"{share:.0f}",
            "▲ " if near else "",
            f"{share:.0f}",
        )

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        account = self.get_object(request, object_id)
        if account is not None:
            extra_context = {**(extra_context or {}), **self._usage_charts(account)}
        return super().change_view(request, object_id, form_url, extra_context)

    def _usage_charts(self, account: Account) -> dict[str, Any]:
        history = usage.usage_history(account_id=account.pk, limits=account.limits, days=CHART_DAYS)
        keys = ApiKey.objects.filter(pk__in=history.keys).in_bulk()
        key_charts = [
            (str(keys[key_id]), series, f"usage-key-{key_id}")
            for key_id, series in history.keys.items()
            if key_id in keys and any(d.admitted or d.refused or d.banned for d in series)
        ]
        return {
            "usage_days": history.days,
            "usage_key_charts": key_charts,
            "usage_csv_url": reverse("admin:apikeys_account_usage_csv", args=[account.pk]),
            "usage_chart_days": CHART_DAYS,
            "usage_kept_days": usage.RETENTION_DAYS,
        }

    def usage_csv_view(self, request: HttpRequest, account_id: int) -> HttpResponse:
        account = get_object_or_404(Account.objects.select_related("plan"), pk=account_id)
        if not self.has_view_permission(request, account):
            raise PermissionDenied
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = (
            f'attachment; filename="usage-account-{account.pk}-{usage.utc_today()}.csv"'
        )
        csv.writer(response).writerows(usage.csv_rows(account=account))
        return response

    def get_urls(self) -> list[Any]:
        return [
            path(
                "<int:account_id>/usage.csv",
                self.admin_site.admin_view(self.usage_csv_view),
                name="apikeys_account_usage_csv",
            ),
            *super().get_urls(),
        ]
