"""`make run`'s embedded set-up (DEBUG on, SQLite): what its commands keep beside the database,
and their refusal anywhere else."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import CommandError


def require(command: str, elsewhere: str) -> None:
    """Refuse ``command`` unless DEBUG is on and the database is the embedded SQLite."""
    database = settings.DATABASES["default"]
    if not settings.DEBUG or database["ENGINE"] != "django.db.backends.sqlite3":
        raise CommandError(
            f"{command} is for `make run`'s embedded database only (DEBUG=1 and SQLite). "
            f"Elsewhere, {elsewhere}"
        )


def local_file(name: str) -> Path:
    # Beside the embedded database, and ignored by git like it: a local secret for a local
    # database, so that every `make run` can show the same working one.
    return Path(settings.DATABASES["default"]["NAME"]).with_name(name)


def keep(path: Path, secret: str) -> None:
    """Write ``secret`` to ``path``, readable by its owner alone."""
    path.write_text(secret + "\n")
    path.chmod(0o600)
