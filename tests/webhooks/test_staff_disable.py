"""An account manager's disable sticks: the partner's ``PATCH {"enabled": true}`` on an endpoint
staff disabled in the admin is a 409 saying why, and changes nothing; staff enable it again in
the admin. One disabled by the worker (a dead receiver) stays the partner's to enable."""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from audit.models import Entry
from tests.assertions import assert_error
from webhooks import services
from webhooks.delivery import Attempt
from webhooks.models import Delivery, Endpoint

ENDPOINTS = "/admin/webhooks/endpoint/"


@pytest.fixture(autouse=True)
def _loopback_receivers(settings: Any) -> None:
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True


@pytest.fixture
def partner(make_key) -> str:
    return make_key()


@pytest.fixture
def endpoint_id(client, partner, receiver) -> int:
    made = send(
        client,
        "POST",
        "/v1/webhook_endpoints",
        partner,
        {"url": receiver.url, "events": ["pet.created"]},
    )
    assert made.status_code == HTTPStatus.CREATED, made.content
    return int(made.json()["id"])


def send(client: Any, method: str, path: str, key: str, body: object) -> Any:
    return client.generic(
        method,
        path,
        json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )


def act(desk: Any, action: str, endpoint_id: int) -> Any:
    """Tick the endpoint in the admin's list, choose ``action`` and press Go."""
    return desk.post(
        ENDPOINTS,
        {"action": action, "_selected_action": [endpoint_id], "index": 0},
        follow=True,
    )


def enable(client: Any, partner: str, endpoint_id: int, **also: object) -> Any:
    body = {"enabled": True, **also}
    return send(client, "PATCH", f"/v1/webhook_endpoints/{endpoint_id}", partner, body)


def test_the_partner_cannot_enable_what_an_account_manager_disabled(
    client, manager_client, partner, endpoint_id
):
    assert act(manager_client, "disable", endpoint_id).status_code == HTTPStatus.OK
    before = Endpoint.objects.values().get(pk=endpoint_id)

    refused = enable(client, partner, endpoint_id, description="Back up")

    body = assert_error(refused, HTTPStatus.CONFLICT, "conflict")
    assert body["message"] == (
        "This endpoint was disabled by an account manager: only they can enable it again "
        "(ask them)."
    )
    assert Endpoint.objects.values().get(pk=endpoint_id) == before  # the note too
    shown = send(client, "GET", f"/v1/webhook_endpoints/{endpoint_id}", partner, None)
    assert (shown.json()["state"], shown.json()["enabled"]) == ("disabled", False)
    # Disabling it again, through the API, is no conflict, and keeps the manager's reason.
    again = send(
        client, "PATCH", f"/v1/webhook_endpoints/{endpoint_id}", partner, {"enabled": False}
    )
    assert again.status_code == HTTPStatus.OK
    assert again.json()["disabledReason"] == "Disabled by an account manager."
    assert enable(client, partner, endpoint_id).status_code == HTTPStatus.CONFLICT


def test_staff_enable_it_in_the_admin_and_then_it_is_the_partners_again(
    client, manager_client, partner, endpoint_id
):
    act(manager_client, "disable", endpoint_id)

    enabled = act(manager_client, "enable", endpoint_id)

    assert enabled.status_code == HTTPStatus.OK
    endpoint = Endpoint.objects.get(pk=endpoint_id)
    assert (endpoint.enabled, endpoint.disabled_by_staff) == (True, False)
    off = send(client, "PATCH", f"/v1/webhook_endpoints/{endpoint_id}", partner, {"enabled": False})
    assert off.status_code == HTTPStatus.OK
    on = enable(client, partner, endpoint_id)
    assert on.status_code == HTTPStatus.OK, on.content
    assert on.json()["state"] == "healthy"
    actors = Entry.objects.filter(action__in=("endpoint.disabled", "endpoint.enabled"))
    assert [e.actor for e in actors.order_by("id")][:2] == ["manager", "manager"]


def test_one_disabled_by_its_dead_receiver_is_the_partners_to_enable(
    client, partner, endpoint_id, dog
):
    from pets import services as pets_services

    pets_services.pet_create(name="Rex", category_id=dog.pk)
    services.fan_out()
    services.record(Delivery.objects.get(), Attempt(status=HTTPStatus.GONE))
    assert not Endpoint.objects.get(pk=endpoint_id).enabled

    enabled = enable(client, partner, endpoint_id)

    assert enabled.status_code == HTTPStatus.OK, enabled.content
    assert enabled.json()["state"] == "healthy"


def test_a_manager_disabling_one_disabled_already_makes_it_theirs(
    client, manager_client, partner, endpoint_id
):
    services.endpoint_set_enabled(
        Endpoint.objects.get(pk=endpoint_id), False, "The endpoint answered 410 Gone."
    )

    act(manager_client, "disable", endpoint_id)

    assert enable(client, partner, endpoint_id).status_code == HTTPStatus.CONFLICT
    endpoint = Endpoint.objects.get(pk=endpoint_id)
    assert endpoint.disabled_reason == "Disabled by an account manager."
    taken = Entry.objects.filter(action="endpoint.disabled", actor="manager").get()
    assert taken.changes == {
        "reason": ["The endpoint answered 410 Gone.", "Disabled by an account manager."]
    }


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_those_staff_disabled_before_the_change_stay_disabled(client, partner, endpoint_id):
    executor = MigrationExecutor(connection)
    executor.migrate([("webhooks", "0008_in_flight_and_example_sends")])
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE webhooks_endpoint SET enabled = false, disabled_reason = %s",
            ["Disabled by an account manager."],
        )

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert enable(client, partner, endpoint_id).status_code == HTTPStatus.CONFLICT
