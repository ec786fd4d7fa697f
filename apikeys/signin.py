"""The admin's sign-in, limited per client address so that passwords cannot be guessed at
speed: django-ratelimit, counting in Redis through ``petstore.cache``."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import admin
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django_otp.middleware import is_verified
from django_ratelimit.core import is_ratelimited

from apikeys.windows import parse_rate
from petstore.addresses import client_subscriber


def caller(group: str, request: HttpRequest) -> str:
    """What an attempt is counted against: the caller's address (an IPv6 /64 as one)."""
    return client_subscriber(request)


def second_factor_pending(request: HttpRequest) -> bool:
    """Whether the request's staff member has yet to give the second factor this session
    (staff.middleware asks it too)."""
    user = getattr(request, "user", None)
    return (
        settings.PETSTORE_ADMIN_SECOND_FACTOR
        and isinstance(user, User)
        and user.is_staff
        and not is_verified(user)
    )


class AdminSite(admin.AdminSite):
    def each_context(self, request: HttpRequest) -> dict[str, Any]:
        context = super().each_context(request)
        if second_factor_pending(request):
            # Before the second factor, a page shows nothing of the admin: no navigation, no
            # models, not the member's links (templates/admin/base_site.html hides the rest).
            context.update(
                available_apps=[],
                is_nav_sidebar_enabled=False,
                has_permission=False,
                second_factor_pending=True,
            )
        return context

    def login(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        limited = is_ratelimited(
            request,
            group="admin-login",
            key=caller,
            rate=parse_rate(settings.PETSTORE_ADMIN_LOGIN_RATE),
            method="POST",
            increment=True,
        )
        if limited:
            return TemplateResponse(
                request,
                "admin/login_limited.html",
                {**self.each_context(request), "title": "Too many attempts"},
                status=429,
            )
        return super().login(request, extra_context)
