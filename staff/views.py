"""The second factor's pages, after the password: enter a code, or set up the authenticator
(its QR code and its key as text) and be shown the recovery codes once."""

from __future__ import annotations

from typing import cast

import segno
from django import forms
from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django_otp import login as otp_login

from audit.services import record
from petstore.addresses import client_address
from staff import devices
from staff.middleware import remember_devices


class CodeForm(forms.Form):
    code = forms.CharField(
        label="Code",
        max_length=32,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "autofocus": True}),
    )


@staff_member_required
def verify(request: HttpRequest) -> HttpResponse:
    """A code from the member's authenticator, or one of their recovery codes."""
    user = _member(request)
    if not devices.confirmed(user):
        return HttpResponseRedirect(reverse("staff:setup"))
    form = CodeForm(request.POST or None)
    if form.is_valid():
        device = devices.verify(user, form.cleaned_data["code"])
        if device is not None:
            otp_login(request, device)
            remember_devices(request, user)
            return HttpResponseRedirect(_next(request))
        _record(request, "staff.otp_failed")
        form.add_error("code", "That code is not right, or it was used already.")
    return _page(request, "staff/verify.html", "Second factor", form=form)


@staff_member_required
def setup(request: HttpRequest) -> HttpResponse:
    """The member's first sign-in: an authenticator app to add, then a code from it."""
    user = _member(request)
    if devices.confirmed(user):
        return HttpResponseRedirect(reverse("staff:verify"))
    device = devices.pending_authenticator(user)
    form = CodeForm(request.POST or None)
    if form.is_valid():
        codes = devices.confirm(device, form.cleaned_data["code"])
        if codes is not None:
            device.refresh_from_db()
            otp_login(request, device)
            remember_devices(request, user)
            _record(request, "staff.otp_confirmed")
            return _page(
                request,
                "staff/recovery_codes.html",
                "Recovery codes",
                codes=codes,
                next=_next(request),
            )
        _record(request, "staff.otp_failed")
        form.add_error("code", "That code is not right: check the app, then try the newest.")
    return _page(
        request,
        "staff/setup.html",
        "Set up your second factor",
        form=form,
        qr=segno.make(device.config_url, error="m").svg_inline(scale=4),
        secret=devices.secret_text(device),
    )


def _page(request: HttpRequest, template: str, title: str, **context: object) -> HttpResponse:
    return TemplateResponse(
        request, template, {**admin.site.each_context(request), "title": title, **context}
    )


def _next(request: HttpRequest) -> str:
    wanted = request.GET.get("next", "")
    if url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return reverse("admin:index")


def _member(request: HttpRequest) -> User:
    """The signed-in member: staff_member_required let no one else in."""
    return cast(User, request.user)


def _record(request: HttpRequest, action: str) -> None:
    user = _member(request)
    record(
        actor=user.get_username(),
        action=action,
        target=user,
        address=client_address(request),
    )
