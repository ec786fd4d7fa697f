"""The account managers' desk: accounts and plans, keys (issue, rotate, revoke), bans.

A raw key exists only in the response that issues it: it is never stored, logged, put in a
message, a cookie or the session. Forms that issue keys carry a one-time token kept in the
session, so that reloading the result page (which re-posts the form) shows nothing again and
issues nothing more.
"""

from __future__ import annotations

import csv
import secrets
from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count, F, Max, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from apikeys import services, usage
from apikeys.limiter import account_usage
from apikeys.models import Account, ApiKey, Ban, KeyKind, Plan, Scope, normalize_origins
from petstore.admin import badge, clipped, short_date

DEFAULT_GRACE_HOURS = 24


def _new_token(request: HttpRequest, purpose: str) -> str:
    token = secrets.token_urlsafe(16)
    request.session[f"one-time:{purpose}"] = token
    return token


def _spend_token(request: HttpRequest, purpose: str) -> bool:
    """True once per token issued for ``purpose``; a re-posted form gets False."""
    expected = request.session.pop(f"one-time:{purpose}", None)
    sent = request.POST.get("one_time_token", "")
    return expected is not None and secrets.compare_digest(expected, sent)


def _show_keys_once(
    request: HttpRequest,
    title: str,
    issued: list[services.IssuedKey],
    back_url: str,
    account: Account | None = None,
) -> TemplateResponse:
    """The page that shows new keys, once; its breadcrumbs lead to ``account`` when given."""
    response = TemplateResponse(
        request,
        "admin/apikeys/key_issued.html",
        {
            **admin.site.each_context(request),
            "title": title,
            "issued": issued,
            "back_url": back_url,
            "account": account,
        },
    )
    # Not kept by the browser or any cache between us and it.
    response["Cache-Control"] = "no-store"
    return response


def key_state_badge(api_key: ApiKey) -> str:
    """The key's state, with when it came about in the tooltip."""
    state = api_key.state(timezone.now())
    if state == "active":
        return badge(state, works=True)
    when = {"revoked": api_key.revoked_at, "expired": api_key.expires_at}.get(state)
    tooltip = f"{state} {when:%Y-%m-%d %H:%M} UTC" if when else "the account is suspended"
    return badge(state, works=False, tooltip=tooltip)


def prefix_cell(api_key: ApiKey, tooltip: str = "") -> str:
    """The prefix, which may wrap after its shared start (``petstore_live_``) when the list is
    short of width; when the key was made is in its tooltip unless another is given."""
    head, _, tail = api_key.prefix.rpartition("_")
    return format_html(
        '<span class="key-prefix" title="{}">{}_<wbr>{}</span>',
        tooltip or f"created {api_key.created_at:%Y-%m-%d %H:%M} UTC",
        head,
        tail,
    )


@admin.register(Plan)
class PlanAdmin(admin.ModelAdmin):
    list_display = ("name", "code", "requests_per_minute", "requests_per_day")
    readonly_fields = ("code",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # the four plans are seeded; Enterprise limits live on accounts

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


KEY_COLUMNS = ("key_prefix", "state", "key_name", "last_used", "expires")


class ApiKeyInline(admin.TabularInline):
    """An account's keys on its page, each with Rotate and Revoke for those who may change keys;
    both go through a confirmation page (AccountAdmin.rotate_key_view, revoke_key_view)."""

    model = ApiKey
    fields = KEY_COLUMNS
    readonly_fields = (*KEY_COLUMNS, "key_actions")
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        if request.user.has_perm("apikeys.change_apikey"):
            return (*KEY_COLUMNS, "key_actions")
        return KEY_COLUMNS

    @admin.display(description="prefix")
    def key_prefix(self, api_key: ApiKey) -> str:
        return prefix_cell(api_key)

    @admin.display(description="state")
    def state(self, api_key: ApiKey) -> str:
        return key_state_badge(api_key)

    @admin.display(description="name")
    def key_name(self, api_key: ApiKey) -> str:
        return clipped(api_key.name)

    @admin.display(description="last use")
    def last_used(self, api_key: ApiKey) -> str:
        return short_date(api_key.last_used_at)

    @admin.display(description="expires")
    def expires(self, api_key: ApiKey) -> str:
        return short_date(api_key.expires_at)

    @admin.display(description="")
    def key_actions(self, api_key: ApiKey) -> str:
        # A revoked key stays revoked; an expired one would be replaced by an expired key.
        state = api_key.state(timezone.now())
        links = []
        if state not in ("revoked", "expired"):
            links.append(("rotate", "Rotate"))
        if state != "revoked":
            links.append(("revoke", "Revoke"))
        return format_html_join(
            " ",
            '<a class="button key-{}" href="{}">{}</a>',
            (
                (
                    action,
                    reverse(
                        f"admin:apikeys_account_{action}_key", args=[api_key.account_id, api_key.pk]
                    ),
                    label,
                )
                for action, label in links
            ),
        )


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


CHART_DAYS = 30


@admin.register(Account)
class AccountAdmin(admin.ModelAdmin):
    # What a manager decides on first (state, plan), then usage, then dates; the email sits
    # under the name rather than in a column of its own, to leave the width to the numbers.
    list_display = (
        "name_and_email",
        "is_active",
        "plan",
        "key_count",
        "requests_this_minute",
        "requests_today",
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
                "fields": ("plan", "custom_requests_per_minute", "custom_requests_per_day"),
                "description": "Custom limits: Enterprise only, which needs both.",
            },
        ),
        ("State", {"fields": ("suspended_at", "created_at", "usage_now")}),
    )
    inlines = (ApiKeyInline,)
    actions = ("suspend", "reactivate")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Account]:
        accounts = (
            super()
            .get_queryset(request)
            .annotate(key_total=Count("api_keys"), last_use=Max("api_keys__last_used_at"))
        )
        return usage.with_recent_usage(accounts)

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

    @admin.display(description="name", ordering="name")
    def name_and_email(self, account: Account) -> str:
        if not account.email:
            return clipped(account.name)
        return format_html(
            '{}<br><small class="clipped">{}</small>', clipped(account.name), account.email
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

    @admin.display(description="this minute")
    def requests_this_minute(self, account: Account) -> int:
        return account_usage(account.pk).this_minute

    @admin.display(description="today")
    def requests_today(self, account: Account) -> int:
        return account_usage(account.pk).today

    @admin.display(description="refused")
    def refused_today(self, account: Account) -> int:
        return account_usage(account.pk).refused_today

    @admin.display(description="usage")
    def usage_now(self, account: Account) -> str:
        if account.pk is None:
            return "-"
        usage = account_usage(account.pk)
        limits = account.limits
        return (
            f"{usage.this_minute} of {limits.per_minute} this minute, "
            f"{usage.today} of {limits.per_day} today, {usage.refused_today} refused today"
        )

    @admin.action(description="Suspend selected accounts (all their keys stop working)")
    def suspend(self, request: HttpRequest, queryset: QuerySet[Account]) -> None:
        for account in queryset:
            services.account_suspend(account=account)
            self.log_change(request, account, "Suspended")
        self.message_user(request, f"{queryset.count()} account(s) suspended.")

    @admin.action(description="Reactivate selected accounts")
    def reactivate(self, request: HttpRequest, queryset: QuerySet[Account]) -> None:
        for account in queryset:
            services.account_reactivate(account=account)
            self.log_change(request, account, "Reactivated")
        self.message_user(request, f"{queryset.count()} account(s) reactivated.")

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
        history = usage.usage_history(account=account, days=CHART_DAYS)
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
            path(
                "<int:account_id>/issue-key/",
                self.admin_site.admin_view(self.issue_key_view),
                name="apikeys_account_issue_key",
            ),
            path(
                "<int:account_id>/keys/<int:key_id>/rotate/",
                self.admin_site.admin_view(self.rotate_key_view),
                name="apikeys_account_rotate_key",
            ),
            path(
                "<int:account_id>/keys/<int:key_id>/revoke/",
                self.admin_site.admin_view(self.revoke_key_view),
                name="apikeys_account_revoke_key",
            ),
            *super().get_urls(),
        ]

    # One key, from its account's page: GET asks, POST acts. The history records the same
    # entries as the key list's actions.

    def _key_to_change(self, request: HttpRequest, account_id: int, key_id: int) -> ApiKey:
        api_key = get_object_or_404(
            ApiKey.objects.select_related("account__plan"), pk=key_id, account_id=account_id
        )
        if not self.admin_site.get_model_admin(ApiKey).has_change_permission(request, api_key):
            raise PermissionDenied
        return api_key

    def rotate_key_view(self, request: HttpRequest, account_id: int, key_id: int) -> HttpResponse:
        api_key = self._key_to_change(request, account_id, key_id)
        account = api_key.account
        back_url = reverse("admin:apikeys_account_change", args=[account.pk])
        state = api_key.state(timezone.now())
        if state in ("revoked", "expired"):
            messages.warning(
                request,
                f"Key {api_key.prefix}… is {state} and cannot be rotated: issue a new key instead.",
            )
            return HttpResponseRedirect(back_url)
        purpose = f"rotate-key:{api_key.pk}"
        form = RotateForm(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            if not _spend_token(request, purpose):
                messages.warning(request, "That form was already used; nothing was rotated.")
                return HttpResponseRedirect(back_url)
            grace = timedelta(hours=form.cleaned_data["grace_hours"])
            new = services.apikey_rotate(api_key=api_key, grace=grace)
            self.log_change(request, api_key, f"Rotated: replaced by {new.api_key.prefix}…")
            self.log_addition(request, new.api_key, f"Issued to replace {api_key.prefix}…")
            messages.success(
                request,
                f"Key {api_key.prefix}… rotated: it keeps working until "
                f"{api_key.expires_at:%Y-%m-%d %H:%M} UTC, then only its replacement does.",
            )
            return _show_keys_once(
                request, f"Replacement API key for {account}", [new], back_url, account
            )
        return self._confirm_key(request, api_key, "rotate", form, _new_token(request, purpose))

    def revoke_key_view(self, request: HttpRequest, account_id: int, key_id: int) -> HttpResponse:
        api_key = self._key_to_change(request, account_id, key_id)
        back_url = reverse("admin:apikeys_account_change", args=[api_key.account_id])
        if api_key.revoked_at is not None:
            messages.info(request, f"Key {api_key.prefix}… was already revoked.")
            return HttpResponseRedirect(back_url)
        if request.method == "POST":
            if services.apikey_revoke(api_key=api_key, revoked_by=request.user):
                self.log_change(request, api_key, "Revoked")
            messages.success(
                request, f"Key {api_key.prefix}… revoked; it is refused from its next request on."
            )
            return HttpResponseRedirect(back_url)
        return self._confirm_key(request, api_key, "revoke", None, "")

    def _confirm_key(
        self,
        request: HttpRequest,
        api_key: ApiKey,
        action: str,
        form: forms.Form | None,
        one_time_token: str,
    ) -> TemplateResponse:
        return TemplateResponse(
            request,
            "admin/apikeys/account/confirm_key.html",
            {
                **self.admin_site.each_context(request),
                "title": f"{action.capitalize()} key {api_key.prefix}…?",
                "account": api_key.account,
                "api_key": api_key,
                "state": key_state_badge(api_key),
                "action": action,
                "form": form,
                "one_time_token": one_time_token,
                "back_url": reverse("admin:apikeys_account_change", args=[api_key.account_id]),
                "opts": self.model._meta,
            },
        )

    def issue_key_view(self, request: HttpRequest, account_id: int) -> HttpResponse:
        account = get_object_or_404(Account, pk=account_id)
        if not self.has_change_permission(request, account):
            return HttpResponseRedirect(reverse("admin:index"))
        back_url = reverse("admin:apikeys_account_change", args=[account.pk])
        purpose = f"issue-key:{account.pk}"
        form = IssueKeyForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            if not _spend_token(request, purpose):
                messages.warning(
                    request,
                    "That form was already used: its key was shown once and cannot be shown "
                    "again. Issue another key if it was lost.",
                )
                return HttpResponseRedirect(back_url)
            days = form.cleaned_data["expires_in_days"]
            issued = services.apikey_issue(
                account=account,
                name=form.cleaned_data["name"],
                expires_in=timedelta(days=days) if days else None,
                **form.access(),
            )
            self.log_addition(request, issued.api_key, f"Issued key {issued.api_key.prefix}…")
            return _show_keys_once(
                request, f"API key issued for {account}", [issued], back_url, account
            )
        return TemplateResponse(
            request,
            "admin/apikeys/issue_key.html",
            {
                **self.admin_site.each_context(request),
                "title": f"Issue an API key for {account}",
                "account": account,
                "form": form,
                "one_time_token": _new_token(request, purpose),
                "back_url": back_url,
                "opts": self.model._meta,
            },
        )


class OriginsField(forms.CharField):
    """Web origins, one per line (or separated by spaces or commas), normalized."""

    widget = forms.Textarea(attrs={"rows": 3, "cols": 50})

    def clean(self, value: Any) -> list[str]:
        text = super().clean(value) or ""
        try:
            return normalize_origins(text.replace(",", " ").split())
        except ValidationError as exc:
            raise forms.ValidationError(exc.messages) from None


_ORIGINS_HELP = (
    "Publishable keys only: the web origins (scheme://host[:port]) whose pages may use the key, "
    "one per line. Requests from any other site's pages are refused."
)
# Where a key's validation errors (apikeys.services.apikey_access) go on these forms.
_ACCESS_FIELDS = {"scopes": "scopes", "allowed_origins": "origins", "kind": "kind"}


def _access_errors(form: forms.Form, exc: ValidationError, prefix: str = "") -> None:
    for field, messages_ in exc.message_dict.items():
        name = _ACCESS_FIELDS.get(field)
        form.add_error(name, [f"{prefix}{message}" for message in messages_])


class IssueKeyForm(forms.Form):
    name = forms.CharField(max_length=255, required=False, help_text="A label, e.g. 'web app'.")
    # Bounded so that the expiry stays a date Python can represent (a larger one is a crash).
    expires_in_days = forms.IntegerField(
        min_value=1,
        max_value=services.MAX_EXPIRY_DAYS,
        required=False,
        help_text="Leave empty for a key that does not expire.",
    )
    kind = forms.ChoiceField(
        choices=KeyKind.choices,
        initial=KeyKind.SECRET,
        required=False,  # secret when not sent
        widget=forms.RadioSelect,
        help_text="Publishable keys (petstore_pub_…) are read-only and bound to web origins, "
        "for browser widgets; secret keys belong on servers.",
    )
    scopes = forms.MultipleChoiceField(
        choices=Scope.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="None ticked: every scope for a secret key, pets:read for a publishable one.",
    )
    origins = OriginsField(required=False, help_text=_ORIGINS_HELP)

    def access(self) -> dict[str, Any]:
        """The kind, scopes and origins chosen, as ``services.apikey_issue`` takes them."""
        return {
            "kind": self.cleaned_data["kind"] or KeyKind.SECRET,
            "scopes": self.cleaned_data["scopes"] or None,
            "origins": self.cleaned_data["origins"],
        }

    def clean(self) -> dict[str, Any] | None:
        cleaned = super().clean()
        if not self.errors:
            try:
                services.apikey_access(**self.access())
            except ValidationError as exc:
                _access_errors(self, exc)
        return cleaned


class RotateForm(forms.Form):
    grace_hours = forms.IntegerField(
        min_value=0,
        max_value=24 * 90,
        initial=DEFAULT_GRACE_HOURS,
        help_text="The old keys keep working this long, so that clients can switch over.",
    )
    kind = forms.ChoiceField(
        choices=[("", "Keep each key's kind"), *KeyKind.choices],
        required=False,
        help_text="The replacements' kind.",
    )
    scopes = forms.MultipleChoiceField(
        choices=Scope.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="None ticked: each replacement keeps its key's scopes.",
    )
    origins = OriginsField(
        required=False, help_text="Empty: each replacement keeps its key's origins."
    )

    def changes(self) -> dict[str, Any]:
        """What the replacements change, as ``services.apikey_rotate`` takes it (None: keep)."""
        return {
            "kind": self.cleaned_data["kind"] or None,
            "scopes": self.cleaned_data["scopes"] or None,
            "origins": self.cleaned_data["origins"] or None,
        }


class ApiKeyChangeForm(forms.ModelForm):
    """A key's scopes and origins, edited; saved with ``save()``, so that every process reads
    the key again on its next request (apikeys.signals)."""

    scopes = forms.MultipleChoiceField(choices=Scope.choices, widget=forms.CheckboxSelectMultiple)
    allowed_origins = OriginsField(required=False, label="Origins", help_text=_ORIGINS_HELP)

    class Meta:
        model = ApiKey
        fields = ("name", "expires_at", "scopes", "allowed_origins")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.initial["scopes"] = self.instance.scope_list
            self.initial["allowed_origins"] = "\n".join(self.instance.origin_list)

    def clean_scopes(self) -> str:
        return " ".join(sorted(set(self.cleaned_data["scopes"])))

    def clean_allowed_origins(self) -> str:
        return " ".join(self.cleaned_data["allowed_origins"])


class KeyStateFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            ("active", "Active"),
            ("revoked", "Revoked"),
            ("expired", "Expired"),
            ("suspended", "Account suspended"),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        # The same precedence as ApiKey.state(): revoked, then expired, then suspended.
        now = timezone.now()
        if self.value() == "active":
            return queryset.active(now)  # type: ignore[attr-defined]
        if self.value() == "revoked":
            return queryset.filter(revoked_at__isnull=False)
        if self.value() == "expired":
            return queryset.filter(revoked_at__isnull=True, expires_at__lte=now)
        if self.value() == "suspended":
            return queryset.filter(
                revoked_at__isnull=True, account__suspended_at__isnull=False
            ).exclude(expires_at__lte=now)
        return queryset


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin):
    form = ApiKeyChangeForm
    # State first, as a badge: it is what a manager checks after revoking or rotating. The
    # creation date is in the prefix's tooltip (the list is in creation order), not a column.
    list_display = (
        "key_prefix",
        "state",
        "kind_short",
        "account_name",
        "key_name",
        "scope_text",
        "origin_text",
        "last_used",
        "expires",
    )
    list_filter = (KeyStateFilter, "kind", "account__plan")
    search_fields = ("prefix", "name", "account__name")
    list_select_related = ("account",)
    fields = (
        "account",
        "name",
        "prefix",
        "kind",
        "scopes",
        "allowed_origins",
        "created_at",
        "last_used_at",
        "expires_at",
        "revoked_at",
        "revoked_by",
    )
    readonly_fields = (
        "account",
        "prefix",
        "kind",
        "created_at",
        "last_used_at",
        "revoked_at",
        "revoked_by",
    )
    actions = ("revoke", "rotate")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # keys are issued from their account's page, where they are shown once

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # revoke instead: the record of a key stays

    @admin.display(description="state")
    def state(self, api_key: ApiKey) -> str:
        return key_state_badge(api_key)

    @admin.display(description="account", ordering="account__name")
    def account_name(self, api_key: ApiKey) -> str:
        return clipped(api_key.account.name)

    @admin.display(description="name", ordering="name")
    def key_name(self, api_key: ApiKey) -> str:
        return clipped(api_key.name)

    @admin.display(description="last use", ordering="last_used_at")
    def last_used(self, api_key: ApiKey) -> str:
        return short_date(api_key.last_used_at)

    @admin.display(description="expires", ordering="expires_at")
    def expires(self, api_key: ApiKey) -> str:
        return short_date(api_key.expires_at)

    @admin.display(description="prefix", ordering="prefix")
    def key_prefix(self, api_key: ApiKey) -> str:
        return prefix_cell(api_key)

    # Short headers and small wrapping text: the list must stay readable at 1280 px.
    @admin.display(description="kind", ordering="kind")
    def kind_short(self, api_key: ApiKey) -> str:
        return "pub" if api_key.is_publishable else "secret"

    @admin.display(description="scopes")
    def scope_text(self, api_key: ApiKey) -> str:
        return format_html("<small>{}</small>", ", ".join(api_key.scope_list) or "-")

    @admin.display(description="origins")
    def origin_text(self, api_key: ApiKey) -> str:
        return format_html("<small>{}</small>", ", ".join(api_key.origin_list) or "-")

    @admin.action(description="Revoke selected keys", permissions=["change"])
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiKey]) -> HttpResponse | None:
        if "confirm" not in request.POST:
            return self._confirm(request, queryset, "revoke", "Revoke these keys?", None)
        revoked = 0
        for api_key in queryset:
            if services.apikey_revoke(api_key=api_key, revoked_by=request.user):
                self.log_change(request, api_key, "Revoked")
                revoked += 1
        self.message_user(request, f"{revoked} key(s) revoked; they are refused from now on.")
        return None

    @admin.action(description="Rotate selected keys (issue replacements)", permissions=["change"])
    def rotate(self, request: HttpRequest, queryset: QuerySet[ApiKey]) -> HttpResponse | None:
        form = RotateForm(request.POST if "confirm" in request.POST else None)
        if "confirm" not in request.POST or not form.is_valid():
            return self._confirm(request, queryset, "rotate", "Rotate these keys?", form)
        if not _spend_token(request, "rotate"):
            self.message_user(
                request, "That form was already used; nothing was rotated.", messages.WARNING
            )
            return None
        grace = timedelta(hours=form.cleaned_data["grace_hours"])
        changes = form.changes()
        live = list(queryset.filter(revoked_at__isnull=True).select_related("account"))
        for api_key in live:
            # Every replacement checked before any is issued: all rotate, or none does.
            try:
                services.apikey_access(
                    **services.apikey_replacement_access(api_key=api_key, **changes)
                )
            except ValidationError as exc:
                _access_errors(form, exc, prefix=f"{api_key.prefix}…: ")
        if form.errors:
            return self._confirm(request, queryset, "rotate", "Rotate these keys?", form)
        revoked = queryset.filter(revoked_at__isnull=False)
        if skipped := revoked.count():
            # A revoked key stays revoked: replacing it would hand its holder a working key.
            self.message_user(
                request,
                f"{skipped} revoked key(s) skipped: issue a new key instead.",
                messages.WARNING,
            )
        issued = []
        with transaction.atomic():
            for api_key in live:
                new = services.apikey_rotate(api_key=api_key, grace=grace, **changes)
                self.log_change(request, api_key, f"Rotated: replaced by {new.api_key.prefix}…")
                self.log_addition(request, new.api_key, f"Issued to replace {api_key.prefix}…")
                issued.append(new)
        if not issued:
            return None
        return _show_keys_once(
            request, "Replacement API keys", issued, reverse("admin:apikeys_apikey_changelist")
        )

    def _confirm(
        self,
        request: HttpRequest,
        queryset: QuerySet[ApiKey],
        action: str,
        title: str,
        form: forms.Form | None,
    ) -> TemplateResponse:
        return TemplateResponse(
            request,
            "admin/apikeys/confirm_keys.html",
            {
                **self.admin_site.each_context(request),
                "title": title,
                "keys": queryset.select_related("account"),
                "action": action,
                "form": form,
                "one_time_token": _new_token(request, action) if form is not None else "",
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
                "opts": self.model._meta,
            },
        )


class BanStateFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("current", "Current"), ("past", "Ended or lifted")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        now = timezone.now()
        if self.value() == "current":
            return queryset.current(now)  # type: ignore[attr-defined]
        if self.value() == "past":
            return queryset.exclude(pk__in=Ban.objects.current(now).values("pk"))
        return queryset


@admin.register(Ban)
class BanAdmin(admin.ModelAdmin):
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
        lifted = 0
        for ban in queryset.filter(lifted_at__isnull=True):
            services.ban_lift(ban=ban, lifted_by=request.user)
            self.log_change(request, ban, "Lifted")
            lifted += 1
        self.message_user(request, f"{lifted} ban(s) lifted; those keys work again now.")
