from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUPS = {
    # Shelter staff look after animals and adoptions; they never see customers or keys.
    "Shelter staff": [("pets", "category"), ("pets", "pet"), ("store", "order")],
    # Account managers look after customers, plans, keys and bans; they never edit animals.
    "Account managers": [
        ("apikeys", "account"),
        ("apikeys", "plan"),
        ("apikeys", "apikey"),
        ("apikeys", "ban"),
    ],
}
ACTIONS = ("view", "add", "change")


def create_groups(apps, schema_editor):
    # Permissions are normally made after all migrations ran; these groups need them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None

    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, models in GROUPS.items():
        group, _ = Group.objects.get_or_create(name=name)
        codenames = [f"{action}_{model}" for _, model in models for action in ACTIONS]
        app_labels = {app_label for app_label, _ in models}
        group.permissions.set(
            Permission.objects.filter(
                content_type__app_label__in=app_labels, codename__in=codenames
            )
        )


def remove_groups(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=GROUPS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("petstore", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("apikeys", "0002_seed_plans"),
        ("pets", "0001_initial"),
        ("store", "0001_initial"),
    ]

    operations = [migrations.RunPython(create_groups, remove_groups)]
