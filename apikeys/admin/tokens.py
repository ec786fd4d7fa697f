"""Keys shown once: the one-time token that lets a form issue keys once, and the page that
shows the new keys."""

from __future__ import annotations

import secrets

from django.contrib import admin
from django.http import HttpRequest
from django.template.response import TemplateResponse

from apikeys import services
from apikeys.models import Account


def new_token(request: HttpRequest, purpose: str) -> str:
    """A token for one form about ``purpose``, kept in the session until it is spent."""
    token = secrets.token_urlsafe(16)
    request.session[f"one-time:{purpose}"] = token
    return token


def spend_token(request: HttpRequest, purpose: str) -> bool:
    """True once per token issued for ``purpose``; a re-posted form gets False."""
    expected = request.session.pop(f"one-time:{purpose}", None)
    sent = request.POST.get("one_time_token", "")
    return expected is not None and secrets.compare_digest(expected, sent)


def show_keys_once(
    request: HttpRequest,
    title: str,
    issued: list[services.IssuedKey],
    back_url: str,
    account: Account | None = None,
) -> TemplateResponse:
    """The page that shows new keys, once; its breadcrumbs lead to ``account`` when given."""
    response = TemplateResponse(
        request,
        "admin/apikeys/key_issued.html",
        {
            **admin.site.each_context(request),
            "title": title,
            "issued": issued,
            "back_url": back_url,
            "account": account,
        },
    )
    # Not kept by the browser or any cache between us and it.
    response["Cache-Control"] = "no-store"
    return response
