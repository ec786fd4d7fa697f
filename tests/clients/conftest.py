"""The webhooks' loopback receiver, for the delivery the SDKs verify."""

from tests.webhooks.conftest import receiver

__all__ = ["receiver"]
