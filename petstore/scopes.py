"""What an API key may do: the API's vocabulary, which every app's views name (``required_scopes``)
and the event types' audiences read. Here, below every app, so that naming a scope needs no
app's import; ``apikeys`` grants them and checks them (``apikeys.scopes``)."""

from __future__ import annotations

from django.db import models


class Scope(models.TextChoices):
    """What a key may do. Each API operation needs one (``apikeys.scopes``)."""

    PETS_READ = "pets:read", "pets:read: list and get animals, list categories"
    PETS_WRITE = "pets:write", "pets:write: add animals"
    ORDERS_READ = "orders:read", "orders:read: list and get the account's orders"
    ORDERS_WRITE = "orders:write", "orders:write: place and cancel orders"
    CATEGORIES_WRITE = "categories:write", "categories:write: add categories (never by default)"
    EVENTS_READ = "events:read", "events:read: list the events the key may see"
    WEBHOOKS_READ = "webhooks:read", "webhooks:read: list and get the account's webhook endpoints"
    WEBHOOKS_WRITE = "webhooks:write", "webhooks:write: add and delete webhook endpoints"


# What a publishable key may hold: it is public in web pages, so it only reads, and never the
# account's webhook endpoints (their URLs, and what their events say of the account).
PUBLISHABLE_SCOPES: frozenset[str] = frozenset(
    scope for scope in Scope.values if scope.endswith(":read") and scope.split(":")[0] != "webhooks"
)
