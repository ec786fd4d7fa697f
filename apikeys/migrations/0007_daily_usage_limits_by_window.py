from django.db import migrations, models


def limits_by_window(apps, schema_editor):
    # The two windows the columns held, by name, as every window's limit is kept from now on:
    # one statement, however many days are kept.
    table = apps.get_model("apikeys", "DailyUsage")._meta.db_table
    postgresql = schema_editor.connection.vendor == "postgresql"
    build = "jsonb_build_object" if postgresql else "json_object"
    schema_editor.execute(
        f"UPDATE {table} SET limits = {build}('minute', per_minute, 'day', per_day)"
    )


def columns_by_window(apps, schema_editor):
    DailyUsage = apps.get_model("apikeys", "DailyUsage")
    for row in DailyUsage.objects.only("limits").iterator():
        row.per_minute = row.limits.get("minute", 0)
        row.per_day = row.limits.get("day", 0)
        row.save(update_fields=["per_minute", "per_day"])


class Migration(migrations.Migration):
    dependencies = [
        ("apikeys", "0006_publishable_keys_hold_no_webhooks"),
    ]

    operations = [
        migrations.AddField(
            model_name="dailyusage",
            name="limits",
            field=models.JSONField(default=dict),
        ),
        migrations.AlterField(
            model_name="dailyusage",
            name="per_minute",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AlterField(
            model_name="dailyusage",
            name="per_day",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(limits_by_window, columns_by_window),
        migrations.RemoveField(model_name="dailyusage", name="per_minute"),
        migrations.RemoveField(model_name="dailyusage", name="per_day"),
    ]
