"""The one invalidation path of the key cache (``apikeys.keyring``): any saved or deleted key,
account or plan makes every cached key lookup, in every process, out of date. Services write
these rows with ``save()``, never ``update()``, so that nothing bypasses it."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from apikeys.keyring import new_key_generation
from apikeys.models import Account, ApiKey, Plan


@receiver([post_save, post_delete], sender=ApiKey)
@receiver([post_save, post_delete], sender=Account)
@receiver([post_save, post_delete], sender=Plan)
def keys_changed(sender: Any, **kwargs: Any) -> None:
    # Now, so that no request from here on trusts a cached lookup; and again after the commit,
    # because a request that read the old rows in between may have cached them under the
    # generation set now.
    new_key_generation()
    transaction.on_commit(new_key_generation)
