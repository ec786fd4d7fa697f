"""Django's middleware for people with browsers (the admin, the docs page), skipped under /v1.

Sessions, the common redirects, authentication and messages do nothing for a call with a bearer
key, yet cost a good part of an API request (``docs/performance.md``). Each class here is Django's
own, passing /v1 straight on; being subclasses, the admin's checks find them. CSRF and
clickjacking protection stay Django's own classes, which its deploy checks look for by name.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.middleware import AuthenticationMiddleware as DjangoAuthentication
from django.contrib.messages.middleware import MessageMiddleware as DjangoMessages
from django.contrib.sessions.middleware import SessionMiddleware as DjangoSessions
from django.http import HttpRequest
from django.middleware.common import CommonMiddleware as DjangoCommon
from django.utils.deprecation import MiddlewareMixin

from petstore.errors import is_api_path


class SkippedUnderApi(MiddlewareMixin):
    def __call__(self, request: HttpRequest) -> Any:
        if is_api_path(request.path_info):
            return self.get_response(request)
        return super().__call__(request)


class SessionMiddleware(SkippedUnderApi, DjangoSessions):
    pass


class CommonMiddleware(SkippedUnderApi, DjangoCommon):
    pass


class AuthenticationMiddleware(SkippedUnderApi, DjangoAuthentication):
    pass


class MessageMiddleware(SkippedUnderApi, DjangoMessages):
    pass
