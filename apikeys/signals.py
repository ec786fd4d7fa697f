"""Any change to what a key lookup returns makes every cached lookup out of date
(see apikeys.keycache). Services that write with ``update()`` call ``keys_changed`` too."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from apikeys import ratelimit
from apikeys.models import Account, ApiKey, Plan


def keys_changed() -> None:
    # Now, so that no request from here on trusts a cached lookup; and again after the commit,
    # because a request that read the old rows in between may have cached them under the
    # generation set now.
    ratelimit.new_key_generation()
    transaction.on_commit(ratelimit.new_key_generation)


@receiver([post_save, post_delete], sender=ApiKey)
@receiver([post_save, post_delete], sender=Account)
@receiver([post_save, post_delete], sender=Plan)
def _on_change(sender: Any, **kwargs: Any) -> None:
    keys_changed()
