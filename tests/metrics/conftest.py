"""The webhooks' loopback receiver, for the metrics of a delivery."""

from tests.webhooks.conftest import receiver

__all__ = ["receiver"]
