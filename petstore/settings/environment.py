"""Reading the environment: small typed helpers that fail loudly on a value they cannot read
rather than guessing."""

from __future__ import annotations

import os
from datetime import UTC, datetime

from django.core.exceptions import ImproperlyConfigured


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {raw!r}")


def env_int(name: str, default: int, *, minimum: int = 0, maximum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {raw!r}") from None
    if value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, not {value}")
    if maximum is not None and value > maximum:
        raise ImproperlyConfigured(f"{name} must be at most {maximum}, not {value}")
    return value


def env_date(name: str, default: str) -> datetime:
    """A UTC day written as ``YYYY-MM-DD``: midnight at its start."""
    raw = os.environ.get(name) or default
    try:
        day = datetime.strptime(raw, "%Y-%m-%d")
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a date (YYYY-MM-DD), not {raw!r}") from None
    return day.replace(tzinfo=UTC)


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]
