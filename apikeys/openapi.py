"""The keys' part of the OpenAPI document: each operation's scope, from its view's declaration
(``apikeys.scopes``). Apart from ``apikeys.scopes`` because drf-spectacular's schema module
imports DRF's views, which import the permission classes."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema

from apikeys.scopes import SecretKeysOnly, required_scope

# The operation's scope, as an OpenAPI extension field. OpenAPI 3.0 (the version this document
# is) requires the scope list of a security requirement to be empty for any scheme but OAuth 2
# and OpenID Connect, so the bearer requirement stays ``[]`` and the scope is stated here and in
# the description.
SCOPES_EXTENSION = "x-required-scopes"


class ScopedAutoSchema(AutoSchema):
    """drf-spectacular's schema, with each operation's scope from its view's declaration."""

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        scope = required_scope(self.view)
        operation[SCOPES_EXTENSION] = [] if scope is None else [scope]
        if scope is not None:
            line = f"**Scope:** `{scope}`."
        elif SecretKeysOnly in getattr(self.view, "permission_classes", ()):
            line = "**Scope:** none: any secret key (publishable keys may not)."
        else:
            line = "**Scope:** none: any valid key, secret or publishable."
        description = operation.get("description", "")
        operation["description"] = f"{description}\n\n{line}" if description else line
        return operation
