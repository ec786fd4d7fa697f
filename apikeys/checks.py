from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks


@checks.register(checks.Tags.caches)
def shared_redis_check(app_configs: Any, **kwargs: Any) -> list[checks.CheckMessage]:
    """Rate limits and bans only hold across processes when they live in a shared Redis."""
    if settings.DEBUG or settings.REDIS_URL:
        return []
    return [
        checks.Warning(
            "No shared Redis is configured: rate limits and bans are counted per process.",
            hint="Set REDIS_URL when running more than one process (gunicorn workers, hosts).",
            id="apikeys.W001",
        )
    ]
