"""The one invalidation path of the key records (``apikeys.keyring``): any saved or deleted key,
account or plan withdraws the records of the keys it touches, and every process's cached keys,
at once, and writes those records anew after its commit. Services write these rows with
``save()``, never ``update()``, so that nothing bypasses it."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from apikeys import keyring
from apikeys.models import Account, ApiKey, Plan


@receiver(post_save, sender=ApiKey)
def key_saved(sender: Any, instance: ApiKey, created: bool, **kwargs: Any) -> None:
    if not created:
        _changed([instance.digest])
        return
    # A new key is known at once, even to a process that sees the commit late: its record
    # allows nothing that another transaction could still undo.
    digests = [instance.digest]
    keyring.publish(digests)
    transaction.on_commit(lambda: keyring.publish(digests))


@receiver(post_delete, sender=ApiKey)
def key_deleted(sender: Any, instance: ApiKey, **kwargs: Any) -> None:
    _changed([instance.digest])


@receiver([post_save, post_delete], sender=Account)
def account_changed(sender: Any, instance: Account, **kwargs: Any) -> None:
    _changed(list(ApiKey.objects.filter(account_id=instance.pk).values_list("digest", flat=True)))


@receiver([post_save, post_delete], sender=Plan)
def plan_changed(sender: Any, instance: Plan, **kwargs: Any) -> None:
    keys = ApiKey.objects.filter(account__plan_id=instance.pk)
    _changed(list(keys.values_list("digest", flat=True)))


def _changed(digests: list[str]) -> None:
    # Now, so that no request from here on trusts a record of before; and after the commit,
    # because a request that read the old rows in between may have written them back.
    keyring.withdraw(digests)
    transaction.on_commit(lambda: keyring.publish(digests))
