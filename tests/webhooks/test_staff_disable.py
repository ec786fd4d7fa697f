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


# A manager's disable holds against the partner's other ways round it: deleting the endpoint
# and making it again, or moving it (its URL or types) while it is disabled.

DISABLED_URLS = "/admin/webhooks/staffdisabledurl/"


def test_deleting_it_and_making_it_again_is_refused(client, manager_client, partner, endpoint_id):
    url = Endpoint.objects.get(pk=endpoint_id).url
    act(manager_client, "disable", endpoint_id)
    deleted = send(client, "DELETE", f"/v1/webhook_endpoints/{endpoint_id}", partner, None)
    assert deleted.status_code == HTTPStatus.NO_CONTENT

    again = send(
        client, "POST", "/v1/webhook_endpoints", partner, {"url": url, "events": ["pet.created"]}
    )

    body = assert_error(again, HTTPStatus.CONFLICT, "conflict")
    assert "disabled by an account manager" in body["message"]
    assert not Endpoint.objects.exists()


def test_a_second_endpoint_for_the_url_is_refused_while_the_first_is_disabled(
    client, manager_client, partner, endpoint_id
):
    url = Endpoint.objects.get(pk=endpoint_id).url
    act(manager_client, "disable", endpoint_id)

    second = send(
        client, "POST", "/v1/webhook_endpoints", partner, {"url": url, "events": ["pet.created"]}
    )

    assert_error(second, HTTPStatus.CONFLICT, "conflict")
    assert Endpoint.objects.count() == 1


def test_another_account_may_use_the_url(client, manager_client, make_key, endpoint_id):
    url = Endpoint.objects.get(pk=endpoint_id).url
    act(manager_client, "disable", endpoint_id)

    made = send(
        client, "POST", "/v1/webhook_endpoints", make_key(), {"url": url, "events": ["pet.created"]}
    )

    assert made.status_code == HTTPStatus.CREATED, made.content


@pytest.mark.parametrize("changed", ["url", "events"])
def test_moving_it_while_disabled_is_refused(
    client, manager_client, partner, endpoint_id, other_receiver, changed
):
    changes = {"url": other_receiver.url, "events": ["pet.created", "pet.status_changed"]}
    changes = {changed: changes[changed]}
    act(manager_client, "disable", endpoint_id)
    before = Endpoint.objects.values().get(pk=endpoint_id)

    moved = send(client, "PATCH", f"/v1/webhook_endpoints/{endpoint_id}", partner, changes)

    body = assert_error(moved, HTTPStatus.CONFLICT, "conflict")
    assert "disabled by an account manager" in body["message"]
    assert Endpoint.objects.values().get(pk=endpoint_id) == before


def test_moving_another_endpoint_to_the_url_is_refused(
    client, manager_client, partner, endpoint_id, other_receiver
):
    url = Endpoint.objects.get(pk=endpoint_id).url
    other = send(
        client,
        "POST",
        "/v1/webhook_endpoints",
        partner,
        {"url": other_receiver.url, "events": ["pet.created"]},
    ).json()["id"]
    act(manager_client, "disable", endpoint_id)

    moved = send(client, "PATCH", f"/v1/webhook_endpoints/{other}", partner, {"url": url})

    assert_error(moved, HTTPStatus.CONFLICT, "conflict")
    assert Endpoint.objects.get(pk=other).url == other_receiver.url


def test_once_staff_enable_it_the_partner_may_move_it(
    client, manager_client, partner, endpoint_id, other_receiver
):
    act(manager_client, "disable", endpoint_id)
    act(manager_client, "enable", endpoint_id)

    moved = send(
        client,
        "PATCH",
        f"/v1/webhook_endpoints/{endpoint_id}",
        partner,
        {"url": other_receiver.url, "events": ["pet.created", "pet.status_changed"]},
    )

    assert moved.status_code == HTTPStatus.OK, moved.content
    assert moved.json()["url"] == other_receiver.url


def test_once_staff_lift_the_url_the_partner_may_make_it_again(
    client, manager_client, partner, endpoint_id
):
    url = Endpoint.objects.get(pk=endpoint_id).url
    act(manager_client, "disable", endpoint_id)
    send(client, "DELETE", f"/v1/webhook_endpoints/{endpoint_id}", partner, None)
    listed = manager_client.get(DISABLED_URLS)
    assert listed.status_code == HTTPStatus.OK
    assert url in listed.content.decode()
    (disabled,) = listed.context["cl"].result_list

    lifted = manager_client.post(
        DISABLED_URLS, {"action": "lift", "_selected_action": [disabled.pk], "index": 0}
    )

    assert lifted.status_code == HTTPStatus.FOUND
    made = send(
        client, "POST", "/v1/webhook_endpoints", partner, {"url": url, "events": ["pet.created"]}
    )
    assert made.status_code == HTTPStatus.CREATED, made.content
    entry = Entry.objects.get(action="endpoint_url.lifted")
    assert (entry.actor, entry.changes) == ("manager", {"url": [url, None]})


def test_staff_enabling_the_endpoint_lifts_its_url(client, manager_client, partner, endpoint_id):
    url = Endpoint.objects.get(pk=endpoint_id).url
    act(manager_client, "disable", endpoint_id)
    act(manager_client, "enable", endpoint_id)
    send(client, "DELETE", f"/v1/webhook_endpoints/{endpoint_id}", partner, None)

    made = send(
        client, "POST", "/v1/webhook_endpoints", partner, {"url": url, "events": ["pet.created"]}
    )

    assert made.status_code == HTTPStatus.CREATED, made.content


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_urls_of_those_staff_disabled_before_the_change_stay_refused(
    client, partner, endpoint_id
):
    url = Endpoint.objects.get(pk=endpoint_id).url
    executor = MigrationExecutor(connection)
    executor.migrate([("webhooks", "0010_subscriptions_follow_the_feed")])
    with connection.cursor() as cursor:
        cursor.execute("UPDATE webhooks_endpoint SET enabled = false, disabled_by_staff = true")

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    send(client, "DELETE", f"/v1/webhook_endpoints/{endpoint_id}", partner, None)

    again = send(
        client, "POST", "/v1/webhook_endpoints", partner, {"url": url, "events": ["pet.created"]}
    )
    assert_error(again, HTTPStatus.CONFLICT, "conflict")
