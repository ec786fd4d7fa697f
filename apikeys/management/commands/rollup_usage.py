from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from apikeys import usage
from petstore.redis import RedisError


class Command(BaseCommand):
    help = (
        "Copy today's and yesterday's request tallies from Redis into the usage history "
        "(run it from cron every few minutes and just after midnight UTC; idempotent)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            done = usage.usage_rollup()
        except RedisError as exc:
            # Nothing is lost while the tallies stay in Redis: the next run copies them.
            raise CommandError(f"Redis is unreachable ({exc}); nothing was rolled up.") from exc
        self.stdout.write(
            f"Rolled up {done.rows} key-day(s) of {done.accounts} account-day(s) "
            f"over the last {done.days} UTC days."
        )
