"""Webhook endpoints through the API: made with their secret shown once, listed without it,
deleted; each account sees only its own; only public https URLs outside development."""

from __future__ import annotations

import base64
import json
from http import HTTPStatus

import pytest

from tests.assertions import assert_error, assert_validation_error
from webhooks.models import Delivery, Endpoint

URL = "https://hooks.example.com/petstore"


@pytest.fixture(autouse=True)
def _public_addresses_only(settings, monkeypatch):
    """Production's rule; example.com's name is resolved here as a public address, since
    these machines have no DNS."""
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = False
    real = __import__("socket").getaddrinfo

    def getaddrinfo(host, *args, **kwargs):
        if host.endswith("example.com"):
            return [(2, 1, 6, "", ("93.184.215.14", 443))]
        return real(host, *args, **kwargs)

    monkeypatch.setattr("socket.getaddrinfo", getaddrinfo)


def create(client, key: str, body: object):
    return client.post(
        "/v1/webhook_endpoints",
        json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )


def test_it_is_created_with_its_secret_shown_once(client, api_key):
    response = create(client, api_key, {"url": URL, "events": ["pet.created", "pet.created"]})

    assert response.status_code == HTTPStatus.CREATED
    body = response.json()
    assert set(body) == {
        "id",
        "url",
        "events",
        "description",
        "enabled",
        "state",
        "pausedUntil",
        "disabledReason",
        "createdAt",
        "secret",
    }
    assert (body["state"], body["pausedUntil"], body["disabledReason"]) == ("healthy", None, None)
    assert body["events"] == ["pet.created"]
    assert body["description"] == ""
    assert body["enabled"] is True
    assert body["secret"].startswith("whsec_")
    assert 24 <= len(base64.b64decode(body["secret"].removeprefix("whsec_"))) <= 64
    assert response["Location"] == f"/v1/webhook_endpoints/{body['id']}"
    listed = client.get("/v1/webhook_endpoints", headers={"Authorization": f"Bearer {api_key}"})
    assert listed.status_code == HTTPStatus.OK
    assert [{k: v for k, v in body.items() if k != "secret"}] == listed.json()


def test_it_keeps_the_partners_note(client, api_key):
    response = create(
        client, api_key, {"url": URL, "events": ["order.placed"], "description": "Orders"}
    )

    assert response.status_code == HTTPStatus.CREATED, response.content
    assert response.json()["description"] == "Orders"


def test_each_account_sees_and_deletes_its_own_only(client, make_key):
    mine, theirs = make_key(), make_key()
    created = create(client, mine, {"url": URL, "events": ["order.placed"]}).json()

    theirs_list = client.get("/v1/webhook_endpoints", headers={"Authorization": f"Bearer {theirs}"})
    path = f"/v1/webhook_endpoints/{created['id']}"
    theirs_delete = client.delete(path, headers={"Authorization": f"Bearer {theirs}"})
    mine_delete = client.delete(path, headers={"Authorization": f"Bearer {mine}"})

    assert theirs_list.json() == []
    assert_error(theirs_delete, HTTPStatus.NOT_FOUND, "not_found")
    assert mine_delete.status_code == HTTPStatus.NO_CONTENT
    assert not Endpoint.objects.exists()


def test_a_publishable_key_is_refused(client, make_key):
    # It cannot hold webhooks:read (petstore.scopes): refused for want of the scope as well.
    widget = make_key(
        kind="publishable", scopes=["events:read", "pets:read"], origins=("https://a.example",)
    )

    response = client.get("/v1/webhook_endpoints", headers={"Authorization": f"Bearer {widget}"})

    assert_error(response, HTTPStatus.FORBIDDEN, "forbidden")


def test_a_key_without_the_scope_is_refused(client, make_key):
    reader = make_key(scopes=["pets:read"])

    response = create(client, reader, {"url": URL, "events": ["pet.created"]})

    assert_error(response, HTTPStatus.FORBIDDEN, "forbidden")
    assert not Endpoint.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"url": URL, "events": ["pet.adopted"]}, "events"),
        ({"url": URL, "events": []}, "events"),
        ({"url": URL}, "events"),
        ({"url": 7, "events": ["pet.created"]}, "url"),
        ({"url": "ftp://hooks.example.com/", "events": ["pet.created"]}, "url"),
        ({"url": "https://", "events": ["pet.created"]}, "url"),
        ({"url": URL, "events": ["pet.created"], "extra": 1}, "extra"),
    ],
)
def test_a_bad_body_is_a_400_naming_the_field(client, api_key, body, field):
    response = create(client, api_key, body)

    assert_validation_error(response, field)
    assert not Endpoint.objects.exists()


@pytest.mark.parametrize(
    "url",
    [
        "https://127.0.0.1/hook",
        "https://[::1]/hook",
        "https://10.1.2.3/hook",
        "https://192.168.0.10/hook",
        "https://169.254.169.254/latest/meta-data/",
        "https://[::ffff:127.0.0.1]/hook",
        "https://224.0.0.1/hook",
        "https://localhost/hook",
        "http://hooks.example.com/hook",
        "https://user:pass@hooks.example.com/hook",
    ],
)
def test_a_url_to_a_private_address_is_refused(client, api_key, url):
    response = create(client, api_key, {"url": url, "events": ["pet.created"]})

    assert_validation_error(response, "url")
    assert not Endpoint.objects.exists()


def test_an_eleventh_endpoint_is_a_conflict(client, api_key):
    for n in range(10):
        made = create(client, api_key, {"url": f"{URL}/{n}", "events": ["pet.created"]})
        assert made.status_code == HTTPStatus.CREATED

    response = create(client, api_key, {"url": URL, "events": ["pet.created"]})

    body = assert_error(response, HTTPStatus.CONFLICT, "conflict")
    assert body["message"] == "An account has at most 10 webhook endpoints."
    assert Endpoint.objects.count() == 10


def test_a_delivery_to_an_address_turned_private_never_connects(
    client, api_key, dog, receiver, settings
):
    from webhooks import services, tasks

    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True
    create(client, api_key, {"url": receiver.url, "events": ["pet.created"]})
    client.post(
        "/v1/pets",
        json.dumps({"name": "Rex", "categoryId": dog.pk}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {api_key}"},
    )
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = False
    services.fan_out()

    (run,) = services.lease_due()
    tasks.deliver(run)

    delivery = Delivery.objects.get()
    assert receiver.connections == 0
    assert delivery.last_status is None
    assert "https://" in delivery.last_error  # refused by the rules, before connecting
    assert delivery.attempts == 1
