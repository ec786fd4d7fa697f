from django.db import migrations, models

from tests.clients.future.pets_migrations import LAST


class Migration(migrations.Migration):
    dependencies = [("pets", LAST)]

    operations = [
        migrations.AddField(
            model_name="pet",
            name="nickname",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
    ]
