from django.apps import AppConfig
from django.conf import settings
from django.core.signals import request_started
from django.db import reset_queries


class PetstoreConfig(AppConfig):
    name = "petstore"
    verbose_name = "Pet store"

    def ready(self) -> None:
        from petstore import admin_middleware  # noqa: F401  (registers its system check)

        if not settings.DEBUG:
            # Django empties every connection's query log as each request starts. With DEBUG
            # off nothing writes to that log (only a debug cursor does, which query-counting
            # tests turn on, and which disconnects this receiver itself while it counts), and
            # the emptying looks each connection up in an asgiref Local: about 27,000
            # instructions a request, measured with callgrind, for nothing.
            request_started.disconnect(reset_queries)
