"""Web origins, as publishable keys are bound to them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from django.core.exceptions import ValidationError

if TYPE_CHECKING:
    pass


_DEFAULT_PORTS = {"http": 80, "https": 443}


def normalize_origin(value: str) -> str:
    """A web origin as browsers send it in ``Origin``: ``scheme://host[:port]``, lower case, no
    default port. Anything else (a path, a query, credentials, another scheme) is refused, so
    that what an account manager typed can be compared exactly with what a browser sends."""
    text = value.strip()
    invalid = ValidationError(
        f"{text!r} is not a web origin: give scheme://host[:port], e.g. https://shelter.example."
    )
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise invalid from None
    scheme, host = parts.scheme.lower(), parts.hostname
    if (
        scheme not in _DEFAULT_PORTS
        or not host
        or parts.username is not None
        or parts.password is not None
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or "*" in host
    ):
        raise invalid
    try:
        host = host.encode("idna").decode("ascii") if not host.isascii() else host
    except UnicodeError:
        raise invalid from None
    if ":" in host:  # IPv6, which an origin writes in brackets
        host = f"[{host}]"
    if port is not None and port != _DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}:{port}"
    return f"{scheme}://{host}"


def normalize_origins(values: Iterable[str]) -> list[str]:
    """Each origin normalized, duplicates dropped, in the order given."""
    normalized: list[str] = []
    errors: list[ValidationError] = []
    for value in values:
        if not value.strip():
            continue
        try:
            origin = normalize_origin(value)
        except ValidationError as exc:
            errors.append(exc)
            continue
        if origin not in normalized:
            normalized.append(origin)
    if errors:
        raise ValidationError(errors)
    return normalized
