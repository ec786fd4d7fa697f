"""Every change to an order, by any path (the API, the admin, a cascade), makes the tags of its
account's answers showing orders out of date (``petstore.conditional``)."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from petstore.conditional import changed
from store.models import Order
from store.selectors import orders_version


@receiver([post_save, post_delete], sender=Order)
def order_changed(instance: Order, **_: Any) -> None:
    changed(orders_version(instance.account_id))
