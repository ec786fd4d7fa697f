"""The admin asks a staff member for the second factor after the password: until the session
is verified, every admin page but these sends them to enter a code, or, having no device yet,
to set one up. A session remembers which devices it was verified with, and ends when they
change (a superuser reset them)."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import logout
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import resolve, reverse
from django_otp.middleware import is_verified

from staff import devices

# Pages an unverified member may open: signing in and out, and the second factor's own.
OPEN = {"admin:login", "admin:logout", "admin:jsi18n", "staff:verify", "staff:setup"}
# The devices a session was verified with (their persistent ids).
VERIFIED_WITH = "staff_verified_with"


class SecondFactorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.startswith("/admin/") and settings.PETSTORE_ADMIN_SECOND_FACTOR:
            stop = self.stop(request)
            if stop is not None:
                return stop
        return self.get_response(request)

    def stop(self, request: HttpRequest) -> HttpResponse | None:
        user = request.user
        if not (isinstance(user, User) and user.is_staff):
            return None
        mine = {device.persistent_id for device in devices.confirmed(user)}
        verified_with = request.session.get(VERIFIED_WITH)
        if verified_with is not None and set(verified_with) != mine:
            logout(request)
            return HttpResponseRedirect(_with_next(reverse("admin:login"), request))
        if is_verified(user):
            if verified_with is None:
                request.session[VERIFIED_WITH] = sorted(mine)
            return None
        if resolve(request.path_info).view_name in OPEN:
            return None
        to = "staff:verify" if mine else "staff:setup"
        return HttpResponseRedirect(_with_next(reverse(to), request))


def remember_devices(request: HttpRequest, user: User) -> None:
    """After a code is accepted: the devices this session is now verified with."""
    mine = sorted(device.persistent_id for device in devices.confirmed(user))
    request.session[VERIFIED_WITH] = mine


def _with_next(url: str, request: HttpRequest) -> str:
    return f"{url}?{urlencode({'next': request.get_full_path()})}"
