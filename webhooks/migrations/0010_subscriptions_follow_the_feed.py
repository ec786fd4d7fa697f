"""Endpoints made before subscriptions followed the feed's rule lose the types the key that
chose them could not read in the feed: the key named by the last trail entry that set the
endpoint's types, or, when the trail names none (a command, staff, or purged), the account's
live secret keys together. Each change is in the trail."""

from django.db import migrations
from django.utils import timezone

from events.types import unreadable

ACTOR = "migration:webhooks.0010"


def choosing_scopes(apps, endpoint):
    """The scopes of the key that chose the endpoint's types, or of the account's keys."""
    Entry = apps.get_model("audit", "Entry")
    ApiKey = apps.get_model("apikeys", "ApiKey")
    entries = Entry.objects.filter(
        target_type="webhooks.endpoint",
        target_id=str(endpoint.pk),
        action__in=("endpoint.created", "endpoint.updated"),
    ).order_by("-at", "-id")
    for entry in entries:
        if entry.action == "endpoint.updated" and "events" not in entry.changes:
            continue
        if entry.actor.startswith("key:"):
            keys = ApiKey.objects.filter(
                account_id=endpoint.account_id, prefix=entry.actor.removeprefix("key:")
            )
            found = keys.values_list("scopes", flat=True).first()
            if found is not None:
                return frozenset(found.split())
        break
    live = ApiKey.objects.filter(
        account_id=endpoint.account_id, kind="secret", revoked_at__isnull=True
    )
    held = live.values_list("scopes", flat=True)
    return frozenset(scope for scopes in held for scope in scopes.split())


def drop_unreadable_types(apps, schema_editor):
    Endpoint = apps.get_model("webhooks", "Endpoint")
    Entry = apps.get_model("audit", "Entry")
    for endpoint in Endpoint.objects.order_by("pk").iterator():
        lacking = unreadable(endpoint.events, choosing_scopes(apps, endpoint))
        if not lacking:
            continue
        kept = [kind for kind in endpoint.events if kind not in lacking]
        Entry.objects.create(
            at=timezone.now(),
            actor=ACTOR,
            action="endpoint.updated",
            target_type="webhooks.endpoint",
            target_id=str(endpoint.pk),
            target_repr=endpoint.url[:200],
            changes={"events": [endpoint.events, kept]},
        )
        endpoint.events = kept
        endpoint.save(update_fields=["events"])


class Migration(migrations.Migration):

    dependencies = [
        ("apikeys", "0006_publishable_keys_hold_no_webhooks"),
        ("audit", "0002_account_managers_read_the_trail"),
        ("webhooks", "0009_disabled_endpoints"),
    ]

    operations = [
        migrations.RunPython(drop_unreadable_types, migrations.RunPython.noop),
    ]
