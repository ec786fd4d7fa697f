from django.conf import settings
from django.db import migrations, models, transaction


def _publishable_may_hold(scope):
    # The rule as it stood when this ran (petstore.scopes.PUBLISHABLE_SCOPES).
    return scope.endswith(":read") and not scope.startswith("webhooks:")


def take_webhook_and_write_scopes_from_publishable_keys(apps, schema_editor):
    ApiKey = apps.get_model("apikeys", "ApiKey")
    changed = []
    for key in ApiKey.objects.filter(kind="publishable").only("scopes", "digest").iterator():
        kept = sorted(scope for scope in key.scopes.split() if _publishable_may_hold(scope))
        if kept != sorted(key.scopes.split()):
            key.scopes = " ".join(kept)
            changed.append(key)
    ApiKey.objects.bulk_update(changed, ["scopes"], batch_size=500)
    # The keys' records in Redis still hold the old scopes: once this commits, they are read
    # again (withdraw does nothing without Redis, and ignores an unreachable one).
    from apikeys import keyring

    digests = [key.digest for key in changed]
    if digests:
        transaction.on_commit(lambda: keyring.withdraw(digests))


class Migration(migrations.Migration):
    dependencies = [
        ("apikeys", "0005_event_and_webhook_scopes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(
            take_webhook_and_write_scopes_from_publishable_keys, migrations.RunPython.noop
        ),
        migrations.RemoveConstraint(
            model_name="apikey",
            name="apikey_publishable_is_read_only",
        ),
        migrations.AddConstraint(
            model_name="apikey",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("kind", "secret"),
                    models.Q(
                        models.Q(("scopes__contains", "categories:write"), _negated=True),
                        models.Q(("scopes__contains", "orders:write"), _negated=True),
                        models.Q(("scopes__contains", "pets:write"), _negated=True),
                        models.Q(("scopes__contains", "webhooks:read"), _negated=True),
                        models.Q(("scopes__contains", "webhooks:write"), _negated=True),
                    ),
                    _connector="OR",
                ),
                name="apikey_publishable_scopes",
            ),
        ),
    ]
