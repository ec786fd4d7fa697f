from django.db import migrations, models

from apikeys.window_migration import fill_window_limits


class Migration(migrations.Migration):
    dependencies = [("apikeys", "0007_daily_usage_limits_by_window")]

    operations = [
        migrations.AddField(
            model_name="plan",
            name="requests_per_hour",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="account",
            name="custom_requests_per_hour",
            field=models.PositiveIntegerField(
                blank=True, help_text="Enterprise only: requests per hour.", null=True
            ),
        ),
        migrations.AddConstraint(
            model_name="account",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("custom_requests_per_hour__isnull", True),
                    ("custom_requests_per_hour__gt", 0),
                    _connector="OR",
                ),
                name="account_custom_per_hour_positive",
            ),
        ),
        fill_window_limits("hour"),
    ]
