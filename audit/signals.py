"""The staff's sign-ins and failed sign-ins, heard from Django's auth signals."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.dispatch import receiver
from django.http import HttpRequest

from audit.services import record
from petstore.addresses import client_address


def _address(request: HttpRequest | None) -> str:
    return client_address(request) if request is not None else ""


@receiver(user_logged_in)
def signed_in(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    record(
        actor=user.get_username(),
        action="staff.signed_in",
        target=user,
        address=_address(request),
    )


@receiver(user_login_failed)
def sign_in_failed(
    sender: Any, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
) -> None:
    # Only the name tried: Django masks the password, and it is never read here anyway.
    field = get_user_model().USERNAME_FIELD
    username = str(credentials.get(field, ""))
    user = get_user_model()._default_manager.filter(**{field: username}).first()
    record(
        actor=username,
        action="staff.sign_in_failed",
        target=user,
        address=_address(request),
        target_type="" if user is not None else "auth.user",
        target_repr="" if user is not None else username,
    )
