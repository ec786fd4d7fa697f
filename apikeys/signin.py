"""The admin's sign-in, limited per client address so that passwords cannot be guessed at
speed: counted by the same limiter as the API, in the same Redis."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from apikeys.limiter import Policy, Subject, limiter
from petstore.addresses import client_address, subscriber


class AdminSite(admin.AdminSite):
    def login(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        if request.method == "POST" and not sign_in_allowed(request):
            return TemplateResponse(
                request,
                "admin/login_limited.html",
                {**self.each_context(request), "title": "Too many attempts"},
                status=429,
            )
        return super().login(request, extra_context)


def sign_in_allowed(request: HttpRequest) -> bool:
    """Counts one attempt against ``PETSTORE_ADMIN_LOGIN_RATE`` (``N/m``) of the caller's
    address; False once the address has made N this minute."""
    per_minute = int(settings.PETSTORE_ADMIN_LOGIN_RATE.partition("/")[0])
    address = subscriber(client_address(request))
    subject = Subject(f"admin-login:{address}", "", Policy(per_minute=per_minute))
    return limiter.check(subject).allowed
