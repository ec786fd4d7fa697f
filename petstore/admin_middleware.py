"""Middleware that only the admin (and Django's own pages) need, skipped on the API.

Sessions, CSRF, authentication, messages and clickjacking protection do nothing for a bearer-key
API call but cost time on every one of them. ``AdminOnlyMiddleware`` stands in MIDDLEWARE for
the list in ``settings.ADMIN_MIDDLEWARE``, builds that chain once as Django would, and calls it
for every path but /v1, where it passes the request straight on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core import checks
from django.core.handlers.exception import convert_exception_to_response
from django.http import HttpRequest, HttpResponse
from django.utils.module_loading import import_string

from petstore.errors import is_api_path

Hook = Callable[..., HttpResponse | None]


class AdminOnlyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        # As django.core.handlers.base.BaseHandler.load_middleware does for MIDDLEWARE: each one
        # wraps the next, and the hooks Django calls around the view are collected, since it
        # would not find them behind this class.
        self._view_hooks: list[Hook] = []
        self._exception_hooks: list[Hook] = []
        handler: Any = convert_exception_to_response(get_response)
        for path in reversed(settings.ADMIN_MIDDLEWARE):
            middleware = import_string(path)(handler)
            if hasattr(middleware, "process_view"):
                self._view_hooks.insert(0, middleware.process_view)
            if hasattr(middleware, "process_exception"):
                self._exception_hooks.append(middleware.process_exception)
            handler = convert_exception_to_response(middleware)
        self._admin_chain = handler

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if is_api_path(request.path_info):
            return self.get_response(request)
        return self._admin_chain(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> HttpResponse | None:
        if is_api_path(request.path_info):
            return None
        for hook in self._view_hooks:
            if (response := hook(request, view, args, kwargs)) is not None:
                return response
        return None

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if is_api_path(request.path_info):
            return None
        for hook in self._exception_hooks:
            if (response := hook(request, exc)) is not None:
                return response
        return None


# Django's own checks look for these in MIDDLEWARE by name; they are in ADMIN_MIDDLEWARE instead
# (settings.SILENCED_SYSTEM_CHECKS), so this check asks for them there.
REQUIRED = {
    "django.contrib.sessions.middleware.SessionMiddleware": "admin.E410",
    "django.contrib.auth.middleware.AuthenticationMiddleware": "admin.E408",
    "django.contrib.messages.middleware.MessageMiddleware": "admin.E409",
    "django.middleware.csrf.CsrfViewMiddleware": "security.W003",
    "django.middleware.clickjacking.XFrameOptionsMiddleware": "security.W002",
}


@checks.register(checks.Tags.security, checks.Tags.admin)
def admin_middleware_check(app_configs: Any, **kwargs: Any) -> list[checks.CheckMessage]:
    """What Django's silenced checks would have said, about ADMIN_MIDDLEWARE."""
    installed = "petstore.admin_middleware.AdminOnlyMiddleware" in settings.MIDDLEWARE
    return [
        checks.Error(
            f"{path} must be in ADMIN_MIDDLEWARE, with AdminOnlyMiddleware in MIDDLEWARE "
            f"(it stands for Django's {check}).",
            id="petstore.E001",
        )
        for path, check in REQUIRED.items()
        if not installed or path not in settings.ADMIN_MIDDLEWARE
    ]
