"""The admin's login, limited per client address so that passwords cannot be guessed at speed."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django_ratelimit.core import is_ratelimited

from apikeys.gateway import client_address

logger = logging.getLogger("petstore.admin")


def _address(group: str, request: HttpRequest) -> str:
    return client_address(request)


def login(request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
    """admin.site.login, answering 429 with a page of its own once an address tries too often."""
    if request.method == "POST":
        # Here, not at the top: the API's workers never load redis-py (apikeys.redis_client).
        import redis

        try:
            limited = is_ratelimited(
                request,
                group="petstore.admin-login",
                key=_address,
                rate=settings.PETSTORE_ADMIN_LOGIN_RATE,
                method="POST",
                increment=True,
            )
        except redis.RedisError:
            # Staff must still be able to sign in while the cache is down.
            logger.warning("admin login limit not checked: the cache is unreachable")
            limited = False
        if limited:
            return TemplateResponse(
                request,
                "admin/login_limited.html",
                {**admin.site.each_context(request), "title": "Too many attempts"},
                status=429,
            )
    return admin.site.login(request, extra_context)
