# The feed's order becomes a position given after commit (events.services.sequence), in place of
# the writing transaction's id. Events already written keep the order they were listed in, so a
# cursor issued before this migration still points where it did (events.selectors).

from django.db import migrations, models

SEQUENCE = "events_event_position"


def place_existing(apps, schema_editor):
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"CREATE SEQUENCE IF NOT EXISTS {SEQUENCE}")
            cursor.execute(
                "UPDATE events_event SET position = placed.n FROM "
                "(SELECT id, row_number() OVER (ORDER BY transaction, id) AS n "
                "FROM events_event) AS placed WHERE events_event.id = placed.id"
            )
            cursor.execute(
                f"SELECT setval('{SEQUENCE}', COALESCE(MAX(position), 0) + 1, false) "
                "FROM events_event"
            )
        else:
            # SQLite commits one writer at a time: ids are in commit order.
            cursor.execute("UPDATE events_event SET position = id")


def drop_sequence(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP SEQUENCE IF EXISTS {SEQUENCE}")


class Migration(migrations.Migration):

    dependencies = [
        ("apikeys", "0005_event_and_webhook_scopes"),
        ("events", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="position",
            field=models.BigIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(place_existing, drop_sequence),
        migrations.AlterModelOptions(
            name="event",
            options={"ordering": ("position",)},
        ),
        migrations.RemoveIndex(
            model_name="event",
            name="event_feed_idx",
        ),
        migrations.RemoveField(
            model_name="event",
            name="transaction",
        ),
        migrations.AddIndex(
            model_name="event",
            index=models.Index(
                condition=models.Q(("account__isnull", True), ("position__isnull", False)),
                fields=["type", "position"],
                name="event_shared_feed_idx",
            ),
        ),
        migrations.AddIndex(
            model_name="event",
            index=models.Index(
                condition=models.Q(("account__isnull", False), ("position__isnull", False)),
                fields=["account", "type", "position"],
                name="event_own_feed_idx",
            ),
        ),
        migrations.AddIndex(
            model_name="event",
            index=models.Index(
                condition=models.Q(("position__isnull", True)),
                fields=["id"],
                name="event_unplaced_idx",
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.UniqueConstraint(fields=("position",), name="event_position_unique"),
        ),
    ]
