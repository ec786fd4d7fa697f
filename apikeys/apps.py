from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class ApikeysConfig(AppConfig):
    name = "apikeys"
    verbose_name = "API keys and plans"

    def ready(self) -> None:
        # Registers the system check and the key cache's one invalidation path.
        from apikeys import checks, signals  # noqa: F401


class AdminConfig(admin_apps.AdminConfig):
    """Django's admin, with a sign-in limited per client address (``apikeys.signin``)."""

    default = False  # named in INSTALLED_APPS in place of django.contrib.admin
    default_site = "apikeys.signin.AdminSite"
