"""The account page's key views: issue a key, and rotate or revoke one after asking first."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone

from apikeys import services
from apikeys.actors import actor_of
from apikeys.admin.display import key_state_badge
from apikeys.admin.forms import IssueKeyForm, RotateForm
from apikeys.admin.rotation import rotate_and_show
from apikeys.admin.tokens import new_token, show_keys_once, spend_token
from apikeys.models import Account, ApiKey


def _back_to(account_id: int) -> str:
    return reverse("admin:apikeys_account_change", args=[account_id])


class AccountKeyViews(admin.ModelAdmin):
    """One key at a time, from its account's page (AccountAdmin's part): GET asks, POST acts.
    The history records the same entries as the key list's actions."""

    def get_urls(self) -> list[Any]:
        return [
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
        back_url = _back_to(account.pk)
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
            if not spend_token(request, purpose):
                messages.warning(request, "That form was already used; nothing was rotated.")
                return HttpResponseRedirect(back_url)
            title = f"Replacement API key for {account}"
            response = rotate_and_show(
                request, self, [api_key], form, title=title, back_url=back_url, account=account
            )
            if response is not None:
                messages.success(
                    request,
                    f"Key {api_key.prefix}… rotated: it keeps working until "
                    f"{api_key.expires_at:%Y-%m-%d %H:%M} UTC, then only its replacement does.",
                )
                return response
        return self._confirm_key(request, api_key, "rotate", form, new_token(request, purpose))

    def revoke_key_view(self, request: HttpRequest, account_id: int, key_id: int) -> HttpResponse:
        api_key = self._key_to_change(request, account_id, key_id)
        back_url = _back_to(api_key.account_id)
        if api_key.revoked_at is not None:
            messages.info(request, f"Key {api_key.prefix}… was already revoked.")
            return HttpResponseRedirect(back_url)
        if request.method == "POST":
            if services.apikey_revoke(
                api_key=api_key, revoked_by=request.user, by=actor_of(request)
            ):
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
                "back_url": _back_to(api_key.account_id),
                "opts": self.model._meta,
            },
        )

    def issue_key_view(self, request: HttpRequest, account_id: int) -> HttpResponse:
        account = get_object_or_404(Account, pk=account_id)
        if not self.has_change_permission(request, account):
            return HttpResponseRedirect(reverse("admin:index"))
        back_url = _back_to(account.pk)
        purpose = f"issue-key:{account.pk}"
        form = IssueKeyForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            if not spend_token(request, purpose):
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
                by=actor_of(request),
                **form.access(),
            )
            self.log_addition(request, issued.api_key, f"Issued key {issued.api_key.prefix}…")
            return show_keys_once(
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
                "one_time_token": new_token(request, purpose),
                "back_url": back_url,
                "opts": self.model._meta,
            },
        )
