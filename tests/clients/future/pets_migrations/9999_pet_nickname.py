from django.db import migrations, models

from tests.clients.future.pets_migrations import LAST


class Migration(migrations.Migration):
    dependencies = [("pets", LAST)]

    operations = [
        migrations.AddField(
            model_name="pet",
            name="nickname",
            # A default in the database too: the release before, still serving while this one
            # deploys, inserts animals without it (docs/releasing.md, expand then contract).
            field=models.CharField(blank=True, default="", db_default="", max_length=64),
        ),
    ]
