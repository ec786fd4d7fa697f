"""The API's URLs plus views that fail on purpose, for the error-format tests."""

from __future__ import annotations

from typing import NoReturn

from django.db import OperationalError
from django.http import HttpRequest
from django.urls import include, path
from rest_framework.request import Request
from rest_framework.views import APIView

SECRET = "the secret detail of a crash"


class CrashView(APIView):
    """An API view with a bug."""

    authentication_classes = []
    permission_classes = []

    def get(self, request: Request) -> NoReturn:
        raise RuntimeError(SECRET)


class DatabaseDownView(APIView):
    """An API view whose database cannot be reached."""

    authentication_classes = []
    permission_classes = []

    def get(self, request: Request) -> NoReturn:
        raise OperationalError(f"connection refused: {SECRET}")


def plain_crash(request: HttpRequest) -> NoReturn:
    """A plain Django view with a bug: the middleware, not DRF, has to answer."""
    raise ZeroDivisionError(SECRET)


def plain_database_down(request: HttpRequest) -> NoReturn:
    raise OperationalError(f"connection refused: {SECRET}")


urlpatterns = [
    path("v1/crash", CrashView.as_view()),
    path("v1/database-down", DatabaseDownView.as_view()),
    path("v1/plain-crash", plain_crash),
    path("v1/plain-database-down", plain_database_down),
    path("", include("petstore.urls")),
]
