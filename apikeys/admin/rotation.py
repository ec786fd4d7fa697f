"""The one path every rotation takes, from the key list's action and from an account's page."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.template.response import TemplateResponse

from apikeys import services
from apikeys.actors import actor_of
from apikeys.admin.forms import RotateForm, access_errors
from apikeys.admin.tokens import show_keys_once
from apikeys.models import Account, ApiKey


def rotate_and_show(
    request: HttpRequest,
    model_admin: admin.ModelAdmin[Any],
    api_keys: Sequence[ApiKey],
    form: RotateForm,
    *,
    title: str,
    back_url: str,
    account: Account | None = None,
) -> TemplateResponse | None:
    """Rotate the unrevoked ``api_keys`` as the (valid) ``form`` says, all or none, record each
    in the history and show the replacements once.

    None when nothing was rotated: a replacement the form's changes would make invalid (the
    reasons are put on ``form``), or no key left to rotate.
    """
    live = [api_key for api_key in api_keys if api_key.revoked_at is None]
    try:
        issued = services.apikeys_rotate(
            api_keys=live, grace=form.grace(), by=actor_of(request), **form.changes()
        )
    except ValidationError as exc:
        access_errors(form, exc)
        return None
    if skipped := len(api_keys) - len(live):
        # A revoked key stays revoked: replacing it would hand its holder a working key.
        messages.warning(request, f"{skipped} revoked key(s) skipped: issue a new key instead.")
    for old, new in zip(live, issued, strict=True):
        model_admin.log_change(request, old, f"Rotated: replaced by {new.api_key.prefix}…")
        model_admin.log_addition(request, new.api_key, f"Issued to replace {old.prefix}…")
    if not issued:
        return None
    return show_keys_once(request, title, issued, back_url, account)
