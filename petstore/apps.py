from django.apps import AppConfig
from django.conf import settings
from django.core.cache import close_caches
from django.core.handlers.base import reset_urlconf
from django.core.signals import request_finished, request_started
from django.db import reset_queries


class PetstoreConfig(AppConfig):
    name = "petstore"
    verbose_name = "Pet store"

    def ready(self) -> None:
        # Three of Django's per-request receivers have nothing to do in this deployment, and
        # cost a good part of an API request between them (docs/performance.md):
        if not settings.DEBUG:
            # only a debug cursor writes the query log that reset_queries empties;
            request_started.disconnect(reset_queries)
        # every request sets its URLconf before it resolves a path, and nothing reverses URLs
        # in a worker's thread between requests;
        request_finished.disconnect(reset_urlconf)
        # and the one cache (settings.CACHES, process memory) has nothing to close.
        request_finished.disconnect(close_caches)
