"""The shared Redis, the task queue (Celery) and Django's cache: each falls back to the serving
process or a folder when REDIS_URL is unset (embedded mode, `make run`)."""

from __future__ import annotations

from petstore.settings.base import BASE_DIR
from petstore.settings.environment import env_str

# The shared Redis of rate limits, usage tallies and the key generation, reached through the one
# client of petstore.redis; unset (embedded mode), they live in the serving process.
REDIS_URL = env_str("REDIS_URL")
REDIS_KEY_PREFIX = "petstore:"
# Short timeouts: while Redis is unreachable, limits fall back to process memory rather than
# holding the request.
REDIS_TIMEOUT_SECONDS = 0.5

# The task queue (petstore.celery): the shared Redis, or without it (make run) a folder. The
# folder transport ignores the host; naming one spares `make run` kombu's warning of its absence.
CELERY_BROKER_URL = REDIS_URL or "filesystem://localhost//"
if not REDIS_URL:
    _queue = env_str("PETSTORE_QUEUE_DIR") or str(BASE_DIR / ".queue")
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": _queue,
        "data_folder_out": _queue,
        # Its exchange table, else a `control` folder in whatever directory the worker runs in.
        "control_folder": f"{_queue}/control",
        # How often an idle worker looks in the folder (kombu's default: every second); each
        # webhook waits for two looks, the dispatch's and its delivery's (docs/webhooks.md).
        "polling_interval": 0.1,
    }
CELERY_TASK_IGNORE_RESULT = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# Django's Redis backend would load redis-py (README, "Choices worth knowing"): nothing is cached
# through Django's cache framework but django-ratelimit's counters (the admin's sign-in limit),
# shared through the one client of petstore.redis (in process memory without Redis, like the
# API's limits).
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "ratelimit": {
        "BACKEND": "petstore.cache.RedisCache",
        "KEY_PREFIX": f"{REDIS_KEY_PREFIX}cache",
    },
}
RATELIMIT_USE_CACHE = "ratelimit"
