from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from petstore import idempotency


class Command(BaseCommand):
    help = "Delete Idempotency-Key records older than 24 hours (run it hourly from cron)."

    def handle(self, *args: Any, **options: Any) -> None:
        deleted = idempotency.purge_expired()
        self.stdout.write(f"Purged {deleted} expired idempotency record(s).")
