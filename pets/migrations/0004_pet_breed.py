"""breed on Pet (release 1.1.0): a nullable column, which PostgreSQL adds without rewriting the
table, and its index, built without locking the table's writes (CONCURRENTLY, so outside a
transaction) while the old release still serves: an additive migration, run before the new code
(docs/releasing.md)."""

import django.db.models.functions.text
from django.db import migrations, models

INDEX = models.Index(
    django.db.models.functions.text.Upper("breed"), models.F("id"), name="pet_breed_ci_id_idx"
)


def add_index(apps, schema_editor):
    pet = apps.get_model("pets", "Pet")
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.add_index(pet, INDEX, concurrently=True)
    else:
        schema_editor.add_index(pet, INDEX)


def remove_index(apps, schema_editor):
    pet = apps.get_model("pets", "Pet")
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.remove_index(pet, INDEX, concurrently=True)
    else:
        schema_editor.remove_index(pet, INDEX)


class Migration(migrations.Migration):
    atomic = False  # CREATE INDEX CONCURRENTLY cannot run in a transaction

    dependencies = [
        ("pets", "0003_filters_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="pet",
            name="breed",
            field=models.CharField(blank=True, max_length=100, null=True),
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.AddIndex(model_name="pet", index=INDEX)],
            database_operations=[migrations.RunPython(add_index, remove_index)],
        ),
    ]
