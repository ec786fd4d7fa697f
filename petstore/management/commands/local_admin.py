"""`make run`'s admin login: made once for the embedded database, never anywhere else."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from petstore import embedded

USERNAME = "admin"


class Command(BaseCommand):
    help = (
        "Create the embedded database's superuser `admin` with a random password (once) and "
        "print the login. Refused unless DEBUG is on and the database is the embedded SQLite."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        embedded.require("local_admin", "make a login with `manage.py createsuperuser`.")
        users = get_user_model().objects
        stored = embedded.local_file(".local-admin-password")
        user = users.filter(username=USERNAME).first()
        if user is None:
            password = secrets.token_urlsafe(12)
            users.create_superuser(username=USERNAME, email="", password=password)
            embedded.keep(stored, password)
        else:
            password = stored.read_text().strip() if stored.exists() else ""
            if not password or not user.check_password(password):
                self.stdout.write(f"user {USERNAME}, with the password you gave it")
                return
        self.stdout.write(f"user {USERNAME}, password {password}")
