from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from apikeys import usage


class Command(BaseCommand):
    help = (
        "Copy today's and yesterday's request tallies from Redis into the usage history "
        "(run it from cron every few minutes and just after midnight UTC; idempotent)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        done = usage.usage_rollup()
        self.stdout.write(
            f"Rolled up {done.rows} key-day(s) of {done.accounts} account-day(s) "
            f"over the last {done.days} UTC days."
        )
