from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from audit.services import entries_purge


class Command(BaseCommand):
    help = "Delete trail entries older than PETSTORE_AUDIT_KEPT_DAYS (run it daily from cron)."

    def handle(self, *args: Any, **options: Any) -> None:
        deleted = entries_purge()
        days = settings.PETSTORE_AUDIT_KEPT_DAYS
        self.stdout.write(f"Purged {deleted} trail entr(ies) older than {days} days.")
