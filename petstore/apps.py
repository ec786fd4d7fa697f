from django.apps import AppConfig
from django.conf import settings
from django.core.cache import close_caches
from django.core.handlers.base import reset_urlconf
from django.core.signals import request_finished, request_started
from django.db import reset_queries
from django.db.models.signals import post_migrate, pre_migrate


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
        # A migration is no request: the statement timeout that keeps a request from holding a
        # worker would cancel a long one half way (a backfill, an index on a big table).
        pre_migrate.connect(_no_statement_timeout, dispatch_uid="petstore.migrate_timeout")
        post_migrate.connect(_statement_timeout_back, dispatch_uid="petstore.migrate_timeout")


def _no_statement_timeout(using: str, **_: object) -> None:
    _set_statement_timeout(using, "SET statement_timeout = 0")


def _statement_timeout_back(using: str, **_: object) -> None:
    # The connection's own value, given when it was opened (settings.DATABASES' options).
    _set_statement_timeout(using, "RESET statement_timeout")


def _set_statement_timeout(using: str, statement: str) -> None:
    from django.db import connections

    connection = connections[using]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(statement)
