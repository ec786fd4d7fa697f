from django.db import migrations, models

from apikeys.window_migration import fill_window_limits
from tests.apikeys.new_window.apikeys_migrations import LAST


class Migration(migrations.Migration):
    dependencies = [("apikeys", LAST)]

    operations = [
        migrations.AddField(
            model_name="plan",
            name="requests_per_quarter_hour",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="account",
            name="custom_requests_per_quarter_hour",
            field=models.PositiveIntegerField(
                blank=True, help_text="Enterprise only: requests per quarter_hour.", null=True
            ),
        ),
        migrations.AddConstraint(
            model_name="account",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("custom_requests_per_quarter_hour__isnull", True),
                    ("custom_requests_per_quarter_hour__gt", 0),
                    _connector="OR",
                ),
                name="account_custom_per_quarter_hour_positive",
            ),
        ),
        fill_window_limits("quarter_hour"),
    ]
