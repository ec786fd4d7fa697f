"""Keys: the key list (edit, revoke, rotate) and the keys on an account's page."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from apikeys import services
from apikeys.actors import actor_of
from apikeys.admin.display import KeyCells
from apikeys.admin.filters import KeyStateFilter
from apikeys.admin.forms import ApiKeyChangeForm, RotateForm
from apikeys.admin.rotation import rotate_and_show
from apikeys.admin.tokens import new_token, spend_token
from apikeys.models import ApiKey
from petstore.admin import clipped

KEY_COLUMNS = ("key_prefix", "state", "key_name", "last_used", "expires")


class ApiKeyInline(KeyCells, admin.TabularInline):
    """An account's keys on its page, each with Rotate and Revoke for those who may change keys;
    both go through a confirmation page (apikeys.admin.account_keys)."""

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


@admin.register(ApiKey)
class ApiKeyAdmin(KeyCells, admin.ModelAdmin):
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

    def save_model(self, request: HttpRequest, obj: ApiKey, form: Any, change: bool) -> None:
        # Through the service, which records an expiry's (or scopes') change in the trail.
        services.apikey_save(api_key=obj, by=actor_of(request))

    @admin.display(description="account", ordering="account__name")
    def account_name(self, api_key: ApiKey) -> str:
        return clipped(api_key.account.name)

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
        revoked, by = 0, actor_of(request)
        for api_key in queryset:
            if services.apikey_revoke(api_key=api_key, revoked_by=request.user, by=by):
                self.log_change(request, api_key, "Revoked")
                revoked += 1
        self.message_user(request, f"{revoked} key(s) revoked; they are refused from now on.")
        return None

    @admin.action(description="Rotate selected keys (issue replacements)", permissions=["change"])
    def rotate(self, request: HttpRequest, queryset: QuerySet[ApiKey]) -> HttpResponse | None:
        form = RotateForm(request.POST if "confirm" in request.POST else None)
        if "confirm" in request.POST and form.is_valid():
            if not spend_token(request, "rotate"):
                self.message_user(
                    request, "That form was already used; nothing was rotated.", messages.WARNING
                )
                return None
            response = rotate_and_show(
                request,
                self,
                list(queryset.select_related("account")),
                form,
                title="Replacement API keys",
                back_url=reverse("admin:apikeys_apikey_changelist"),
            )
            if response is not None or not form.errors:
                return response
        return self._confirm(request, queryset, "rotate", "Rotate these keys?", form)

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
                "one_time_token": new_token(request, action) if form is not None else "",
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
                "opts": self.model._meta,
            },
        )
