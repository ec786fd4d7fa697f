"""Which scope each API operation needs: declared once on its viewset, checked by one DRF
permission, and written into the OpenAPI document from the same declaration
(``apikeys.openapi.ScopedAutoSchema``).

A viewset names the scope of each of its actions::

    required_scopes = {"list": Scope.PETS_READ, "create": Scope.PETS_WRITE}

``None`` means any valid key may call it (``GET /v1/rate_limit``). An action missing from the
map is a programming error, refused rather than let through.

The check reads the key admission already put on the request: no query, no round trip. A
scope change reaches it on the very next request in every process, because the key itself is
read again then (``apikeys.keyring``).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ImproperlyConfigured
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from apikeys.records import KeyRecord


def required_scope(view: Any) -> str | None:
    """The scope ``view``'s current action needs; None when any key will do."""
    declared: dict[str, str | None] | None = getattr(view, "required_scopes", None)
    action = getattr(view, "action", None)
    if declared is None or action not in declared:
        raise ImproperlyConfigured(
            f"{type(view).__name__} does not declare the scope its {action!r} action needs "
            "(required_scopes)."
        )
    scope = declared[action]
    return None if scope is None else str(scope)


class HasScope(BasePermission):
    """An authenticated key that holds the scope of the operation called.

    Without a key DRF answers 401 (the authentication class names the scheme). A key without
    the scope gets 403 ``forbidden``, naming the scope and the key's own; nothing has run yet,
    so nothing is written, and admission has counted the request already.
    """

    def has_permission(self, request: Request, view: Any) -> bool:
        api_key = request.auth
        if not isinstance(api_key, KeyRecord):
            return False
        # None: a method the view does not serve, which DRF answers 405. "metadata": DRF's
        # answer to OPTIONS, which describes the operations and reads no data.
        if getattr(view, "action", None) in (None, "metadata"):
            return True
        needed = required_scope(view)
        if needed is None or needed in api_key.scope_set:
            return True
        held = ", ".join(f"`{scope}`" for scope in api_key.scope_list) or "none"
        raise PermissionDenied(
            f"This API key lacks the `{needed}` scope this operation needs; its scopes: {held}."
        )


class SecretKeysOnly(BasePermission):
    """For what an account tells no one else (its usage): a publishable key is made to be seen
    in web pages, so whoever views one must not learn the account's traffic from it."""

    def has_permission(self, request: Request, view: Any) -> bool:
        api_key = request.auth
        if isinstance(api_key, KeyRecord) and api_key.is_publishable:
            raise PermissionDenied(
                "Publishable keys cannot read this: they are public in web pages. Use a secret key."
            )
        return True
