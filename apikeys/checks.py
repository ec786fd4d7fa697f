from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks
from django.core.cache.backends.redis import RedisCache


@checks.register(checks.Tags.caches, deploy=False)
def shared_cache_check(app_configs: Any, **kwargs: Any) -> list[checks.CheckMessage]:
    """Rate limits and bans only hold across processes when they live in a shared cache."""
    from django.core.cache import caches

    if settings.DEBUG or isinstance(caches["default"], RedisCache):
        return []
    return [
        checks.Warning(
            "No shared cache is configured: rate limits and bans are counted per process.",
            hint="Set REDIS_URL when running more than one process (gunicorn workers, hosts).",
            id="apikeys.W001",
        )
    ]
