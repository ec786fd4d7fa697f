from django.db import migrations

PLANS = [
    # code, name, per minute, per day (Enterprise: set on each account)
    ("free", "Free", 60, 1_000),
    ("pro", "Pro", 300, 10_000),
    ("business", "Business", 1_000, 100_000),
    ("enterprise", "Enterprise", None, None),
]


def seed_plans(apps, schema_editor):
    Plan = apps.get_model("apikeys", "Plan")
    for code, name, per_minute, per_day in PLANS:
        Plan.objects.update_or_create(
            code=code,
            defaults={
                "name": name,
                "requests_per_minute": per_minute,
                "requests_per_day": per_day,
            },
        )


class Migration(migrations.Migration):
    dependencies = [("apikeys", "0001_initial")]

    operations = [migrations.RunPython(seed_plans, migrations.RunPython.noop)]
