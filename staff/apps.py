from django.apps import AppConfig
from django_otp.plugins.otp_static.apps import DefaultConfig as StaticConfig
from django_otp.plugins.otp_totp.apps import DefaultConfig as TOTPConfig


class StaffConfig(AppConfig):
    # The one of this module's configs that INSTALLED_APPS' "staff" means.
    default = True
    name = "staff"
    verbose_name = "Staff accounts"


class AuthenticatorsConfig(TOTPConfig):
    """django-otp's authenticator apps, named for staff rather than by the app's label."""

    verbose_name = "Second factor: authenticator apps"


class RecoveryCodesConfig(StaticConfig):
    """django-otp's one-time recovery codes, named for staff rather than by the app's label."""

    verbose_name = "Second factor: recovery codes"
