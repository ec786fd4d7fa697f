from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core.cache import close_caches
from django.core.cache.backends.base import BaseCache
from django.core.handlers.base import reset_urlconf
from django.core.signals import request_finished, request_started, setting_changed
from django.db import reset_queries
from django.utils.module_loading import import_string


class PetstoreConfig(AppConfig):
    name = "petstore"
    verbose_name = "Pet store"

    def ready(self) -> None:
        from petstore import admin_middleware  # noqa: F401  (registers its system check)

        # Django's request signals run four receivers around every request, and each finds its
        # state in an asgiref Local (a failed attribute lookup and a caught exception each
        # time): together about 160,000 instructions of a get's 1.1 million, measured with
        # callgrind. close_old_connections is what CONN_MAX_AGE and broken connections need,
        # and stays; the other three have nothing to do here, and are disconnected.
        if not settings.DEBUG:
            # With DEBUG off nothing writes the query log this empties (only a debug cursor
            # does, which query-counting tests turn on, and which disconnects this receiver
            # itself while it counts).
            request_started.disconnect(reset_queries)
        # Django sets the thread's URLconf as each request starts (ROOT_URLCONF, or the one a
        # middleware chose in request.urlconf) and resets it as the request ends. The next
        # request sets it again before anything reads it, so the reset matters only to code
        # that reverses URLs in a request's thread between requests, and there is none here:
        # gunicorn's workers and runserver's threads only serve.
        request_finished.disconnect(reset_urlconf)
        close_caches_only_if_needed()
        setting_changed.connect(_on_setting_changed, dispatch_uid="petstore.caches_close")


def close_caches_only_if_needed() -> None:
    """Keep Django's close_caches receiver only for a cache whose ``close`` does something.

    Redis's and local memory's do nothing (their connections are kept, or there are none);
    memcached's, for one, ends a connection.
    """
    backends = [import_string(str(cache["BACKEND"])) for cache in settings.CACHES.values()]
    if all(backend.close is BaseCache.close for backend in backends):
        request_finished.disconnect(close_caches)
    else:
        request_finished.connect(close_caches)


def _on_setting_changed(*, setting: str, **kwargs: Any) -> None:
    # Tests, and nothing else, change settings while the process runs.
    if setting == "CACHES":
        close_caches_only_if_needed()
