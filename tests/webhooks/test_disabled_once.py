"""``webhook_endpoint.disabled``: written once however an endpoint is disabled, even by two
``410``s at once, and seen only by the account's keys with ``webhooks:read``."""

from __future__ import annotations

import threading
from http import HTTPStatus

import pytest
from django.db import connection

from audit.models import Entry
from events.models import Event
from events.types import EventType
from pets import services as pets_services
from webhooks import services
from webhooks.delivery import Attempt
from webhooks.models import Delivery, DeliveryState, Endpoint

GONE = Attempt(status=HTTPStatus.GONE)


def bearer(raw: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {raw}"}


def disabled_events() -> list[Event]:
    return list(Event.objects.filter(type=EventType.WEBHOOK_ENDPOINT_DISABLED))


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_two_410s_at_once_write_one_event_and_one_trail_entry(make_account, dog):
    endpoint = Endpoint.objects.create(
        account=make_account(), url="https://receiver.example/hooks", events=["pet.created"]
    )
    for name in ("Rex", "Fido"):
        pets_services.pet_create(name=name, category_id=dog.pk)
    services.fan_out()
    # Each attempt holds its own instance of the endpoint, read while it was enabled.
    in_flight = list(Delivery.objects.select_related("endpoint").filter(endpoint=endpoint))
    assert len(in_flight) == 2
    start = threading.Barrier(len(in_flight))
    failures: list[BaseException] = []

    def answered_gone(delivery: Delivery) -> None:
        try:
            start.wait()
            services.record(delivery, GONE)
        except BaseException as exc:  # the test reports it: a thread's would be lost
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=answered_gone, args=(d,)) for d in in_flight]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert failures == []
    (event,) = disabled_events()
    assert event.account_id == endpoint.account_id
    assert event.data["id"] == endpoint.pk
    assert event.data["disabledReason"] == "The endpoint answered 410 Gone."
    (entry,) = Entry.objects.filter(action="endpoint.disabled", target_id=str(endpoint.pk))
    assert entry.changes["enabled"] == [True, False]
    assert set(Delivery.objects.values_list("state", flat=True)) == {DeliveryState.FAILED}


@pytest.mark.django_db
def test_disabling_a_disabled_endpoint_writes_nothing_and_keeps_its_reason(make_account):
    endpoint = Endpoint.objects.create(account=make_account(), url="https://a.example/hooks")
    services.endpoint_set_enabled(endpoint, False, "The endpoint answered 410 Gone.")
    stale = Endpoint.objects.get(pk=endpoint.pk)
    stale.enabled = True  # as an instance read before the first disabling holds it

    services.endpoint_set_enabled(stale, False, "Disabled by an account manager.")

    assert len(disabled_events()) == 1
    assert Entry.objects.filter(action="endpoint.disabled").count() == 1
    assert (stale.enabled, stale.disabled_reason) == (False, "The endpoint answered 410 Gone.")


@pytest.mark.django_db
def test_it_is_written_again_when_a_reenabled_endpoint_is_disabled(make_account):
    endpoint = Endpoint.objects.create(account=make_account(), url="https://a.example/hooks")

    services.endpoint_set_enabled(endpoint, False, "The endpoint answered 410 Gone.")
    services.endpoint_set_enabled(endpoint, True)
    services.endpoint_set_enabled(endpoint, False, "Disabled by an account manager.")

    reasons = [event.data["disabledReason"] for event in disabled_events()]
    assert reasons == ["The endpoint answered 410 Gone.", "Disabled by an account manager."]


@pytest.mark.django_db
def test_only_the_accounts_keys_with_webhooks_read_see_it(client, make_account, make_key):
    account = make_account()
    endpoint = Endpoint.objects.create(account=account, url="https://a.example/hooks")
    services.endpoint_set_enabled(endpoint, False, "The endpoint answered 410 Gone.")
    watcher = make_key(account, scopes=["events:read", "webhooks:read"])
    without = make_key(account, scopes=["events:read", "pets:read"])
    widget = make_key(
        account, kind="publishable", scopes=["events:read"], origins=("https://a.example",)
    )
    stranger = make_key(make_account(), scopes=["events:read", "webhooks:read"])

    def types_seen(raw: str) -> list[str]:
        response = client.get("/v1/events", headers=bearer(raw))
        assert response.status_code == HTTPStatus.OK
        return [event["type"] for event in response.json()]

    assert types_seen(watcher) == ["webhook_endpoint.disabled"]
    assert types_seen(without) == types_seen(widget) == types_seen(stranger) == []
