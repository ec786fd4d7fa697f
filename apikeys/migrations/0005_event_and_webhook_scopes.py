from django.db import migrations

# They concern only the account's own data: every secret key is given them.
NEW_SCOPES = {"events:read", "webhooks:read", "webhooks:write"}


def grant_secret_keys_the_new_scopes(apps, schema_editor):
    ApiKey = apps.get_model("apikeys", "ApiKey")
    changed = []
    for key in ApiKey.objects.filter(kind="secret").only("scopes", "digest").iterator():
        key.scopes = " ".join(sorted(set(key.scopes.split()) | NEW_SCOPES))
        changed.append(key)
    ApiKey.objects.bulk_update(changed, ["scopes"], batch_size=500)
    # The keys' records in Redis still hold the old scopes: they are read again.
    from apikeys import keyring

    keyring.withdraw([key.digest for key in changed])


class Migration(migrations.Migration):

    dependencies = [
        ("apikeys", "0004_daily_usage"),
    ]

    operations = [
        migrations.RunPython(grant_secret_keys_the_new_scopes, migrations.RunPython.noop),
    ]
