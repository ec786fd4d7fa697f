from django.contrib.auth.management import create_permissions
from django.db import migrations

MODELS = ("endpoint", "delivery")


def grant_account_managers(apps, schema_editor):
    # Permissions are normally made after all migrations ran; the group needs them now.
    app_config = apps.get_app_config("webhooks")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name="Account managers").first()
    if group is not None:
        group.permissions.add(
            *Permission.objects.filter(
                content_type__app_label="webhooks",
                codename__in=[f"{action}_{model}" for model in MODELS for action in ("view", "change")],
            )
        )


class Migration(migrations.Migration):
    dependencies = [
        ("webhooks", "0001_initial"),
        ("petstore", "0002_staff_groups"),
    ]

    operations = [migrations.RunPython(grant_account_managers, migrations.RunPython.noop)]
