from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from apikeys import usage


class Command(BaseCommand):
    help = f"Delete usage history older than {usage.RETENTION_DAYS} days (run it daily from cron)."

    def handle(self, *args: Any, **options: Any) -> None:
        deleted = usage.usage_purge()
        self.stdout.write(
            f"Purged {deleted} key-day(s) of usage older than {usage.RETENTION_DAYS} days."
        )
