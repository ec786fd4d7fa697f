"""Subscriptions follow the feed's rule: a key subscribes only to the types it may read in
``listEvents`` (``events.types``), refused otherwise with a 400 naming each type and the scopes
it lacks, on create and update. Endpoints made before the rule lose, by a migration, the types
the key that chose them could not read, and are then sent none of them."""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from apikeys import keys
from apikeys.models import ApiKey
from audit.models import Entry
from events.models import Event
from tests.assertions import assert_validation_error
from webhooks import services
from webhooks.models import Delivery, Endpoint

URL = "https://127.0.0.1:9/hooks"
WEBHOOKS_ONLY = ["webhooks:read", "webhooks:write"]
PARTNER = [*WEBHOOKS_ONLY, "events:read", "pets:read"]  # every animal's events, no orders


@pytest.fixture(autouse=True)
def _loopback_receivers(settings: Any) -> None:
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True


def send(client: Any, method: str, path: str, key: str, body: object) -> Any:
    return client.generic(
        method,
        path,
        json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )


def create(client: Any, key: str, *events: str) -> Any:
    return send(client, "POST", "/v1/webhook_endpoints", key, {"url": URL, "events": list(events)})


def test_a_key_holding_only_webhooks_scopes_subscribes_to_nothing_it_cannot_read(client, make_key):
    key = make_key(scopes=WEBHOOKS_ONLY)

    refused = create(client, key, "order.placed", "usage.threshold", "webhook_endpoint.disabled")

    (message,) = assert_validation_error(refused, "events")["events"]
    assert "`order.placed` needs events:read, orders:read" in message
    assert "`usage.threshold` needs events:read" in message
    assert "`webhook_endpoint.disabled` needs events:read" in message
    assert not Endpoint.objects.exists()


def test_it_names_only_the_types_refused_and_the_scopes_missing(client, make_key):
    key = make_key(scopes=PARTNER)

    refused = create(client, key, "pet.created", "order.placed", "order.cancelled")

    (message,) = assert_validation_error(refused, "events")["events"]
    assert "`order.placed` needs orders:read; `order.cancelled` needs orders:read." in message
    assert "pet.created" not in message
    assert not Endpoint.objects.exists()


def test_the_types_it_may_read_are_accepted(client, make_key):
    key = make_key(scopes=PARTNER)

    made = create(client, key, "pet.created", "category.created", "usage.threshold")

    assert made.status_code == HTTPStatus.CREATED, made.content
    assert made.json()["events"] == ["pet.created", "category.created", "usage.threshold"]


def test_an_update_to_types_it_cannot_read_is_refused_and_changes_nothing(client, make_key):
    account_key = make_key()
    made = create(client, account_key, "order.placed").json()
    partner = make_key(account=Endpoint.objects.get().account, scopes=PARTNER)
    path = f"/v1/webhook_endpoints/{made['id']}"

    new_types = send(client, "PATCH", path, partner, {"events": ["pet.created", "order.placed"]})
    new_url = send(client, "PATCH", path, partner, {"url": URL + "/elsewhere"})

    (message,) = assert_validation_error(new_types, "events")["events"]
    assert "`order.placed` needs orders:read" in message
    # Moving another key's subscription to a URL of its own would read the orders too.
    (message,) = assert_validation_error(new_url, "url")["url"]
    assert "`order.placed` needs orders:read" in message
    assert Endpoint.objects.values_list("url", "events").get() == (URL, ["order.placed"])
    # With types it may read, the move is its to make.
    moved = send(client, "PATCH", path, partner, {"url": URL + "/2", "events": ["pet.created"]})
    assert moved.status_code == HTTPStatus.OK, moved.content


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_migration_drops_what_the_choosing_key_could_not_read_and_dispatch_sends_none(
    make_account, make_key
):
    account = make_account()
    narrow = make_key(account=account, scopes=PARTNER)
    make_key(account=account, scopes=WEBHOOKS_ONLY)  # the account's other live key
    prefix = ApiKey.objects.get(digest=keys.digest(narrow)).prefix
    executor = MigrationExecutor(connection)
    before_the_rule = [("webhooks", "0009_disabled_endpoints")]
    executor.migrate(before_the_rule)
    # Made before the rule, as the code of that day did (today's models name later columns):
    # by the narrow key (the trail names it), and by a command.
    apps = executor.loader.project_state(before_the_rule).apps
    everything = ["pet.created", "order.placed", "usage.threshold"]
    by_key = _made_then(apps, account, everything, f"key:{prefix}")
    by_command = _made_then(apps, account, everything, "command:seed")
    readable = _made_then(apps, account, ["pet.created"], f"key:{prefix}")

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert Endpoint.objects.get(pk=by_key.pk).events == ["pet.created", "usage.threshold"]
    # The account's keys together hold no orders:read either.
    assert Endpoint.objects.get(pk=by_command.pk).events == ["pet.created", "usage.threshold"]
    assert Endpoint.objects.get(pk=readable.pk).events == ["pet.created"]
    (entry,) = Entry.objects.filter(actor="migration:webhooks.0010", target_id=str(by_key.pk))
    assert entry.changes == {"events": [everything, ["pet.created", "usage.threshold"]]}
    assert not Entry.objects.filter(target_id=str(readable.pk), actor__startswith="migration")

    Event.objects.create(type="order.placed", account=account, data={})
    Event.objects.create(type="pet.created", data={})
    services.fan_out()
    sent = Delivery.objects.values_list("event__type", flat=True)
    assert sorted(sent) == ["pet.created"] * 3


def _made_then(apps, account, events: list[str], actor: str):
    """An endpoint, written with the model of a migration's state, and its trail's entry."""
    endpoint = apps.get_model("webhooks", "Endpoint").objects.create(
        account_id=account.pk, url=URL, events=events, secret="whsec_" + "A" * 43 + "="
    )
    Entry.objects.create(  # the trail's table is as it was then
        actor=actor,
        action="endpoint.created",
        target_type="webhooks.endpoint",
        target_id=str(endpoint.pk),
        changes={"account": [None, account.pk], "url": [None, URL], "events": [None, events]},
    )
    return endpoint
