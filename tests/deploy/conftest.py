"""A release deployed to a running `make serve`: the webhooks' loopback receiver is shared."""

from __future__ import annotations

from tests.webhooks.conftest import receiver

__all__ = ["receiver"]
