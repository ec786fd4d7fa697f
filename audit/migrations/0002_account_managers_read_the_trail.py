from django.contrib.auth.management import create_permissions
from django.db import migrations


def grant_account_managers(apps, schema_editor):
    # Permissions are normally made after all migrations ran; the group needs this one now.
    # What of the trail they read is audit.admin's choice: the objects they may view.
    app_config = apps.get_app_config("audit")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name="Account managers").first()
    if group is not None:
        group.permissions.add(
            Permission.objects.get(content_type__app_label="audit", codename="view_entry")
        )


def revoke_account_managers(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name="Account managers").first()
    if group is not None:
        group.permissions.remove(
            *Permission.objects.filter(content_type__app_label="audit", codename="view_entry")
        )


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0001_initial"),
        ("petstore", "0002_staff_groups"),
    ]

    operations = [migrations.RunPython(grant_account_managers, revoke_account_managers)]
