"""`make run`'s admin login: made once for the embedded database, never anywhere else."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

USERNAME = "admin"


def password_file() -> Path:
    # Beside the embedded database, and ignored by git like it: a local secret for a local
    # database, so that every `make run` can show the same working login.
    return Path(settings.DATABASES["default"]["NAME"]).with_name(".local-admin-password")


class Command(BaseCommand):
    help = (
        "Create the embedded database's superuser `admin` with a random password (once) and "
        "print the login. Refused unless DEBUG is on and the database is the embedded SQLite."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        database = settings.DATABASES["default"]
        if not settings.DEBUG or database["ENGINE"] != "django.db.backends.sqlite3":
            raise CommandError(
                "local_admin is for `make run`'s embedded database only (DEBUG=1 and SQLite). "
                "Elsewhere, make a login with `manage.py createsuperuser`."
            )
        users = get_user_model().objects
        stored = password_file()
        user = users.filter(username=USERNAME).first()
        if user is None:
            password = secrets.token_urlsafe(12)
            users.create_superuser(username=USERNAME, email="", password=password)
            stored.write_text(password + "\n")
            stored.chmod(0o600)
        else:
            password = stored.read_text().strip() if stored.exists() else ""
            if not password or not user.check_password(password):
                self.stdout.write(f"user {USERNAME}, with the password you gave it")
                return
        self.stdout.write(f"user {USERNAME}, password {password}")
