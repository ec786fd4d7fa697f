"""Webhook endpoint changes in the trail: made and deleted by a partner through the API (the
key's prefix is the actor), and disabled, enabled, their secret rotated or deleted in the admin."""

from __future__ import annotations

import json
from http import HTTPStatus

import pytest
from django.test import Client

from apikeys import keys
from tests.audit.conftest import (
    ADMIN_ADDRESS,
    MANAGER_ADDRESS,
    PARTNER_ADDRESS,
    every,
    only,
    run_action,
)
from webhooks import services
from webhooks.models import Endpoint

URL = "https://hooks.example.com/petstore"
ENDPOINTS = "/admin/webhooks/endpoint/"

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _public_addresses_only(settings, monkeypatch):
    """example.com's name resolved as a public address, since these machines have no DNS."""
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = False
    real = __import__("socket").getaddrinfo

    def getaddrinfo(host, *args, **kwargs):
        if host.endswith("example.com"):
            return [(2, 1, 6, "", ("93.184.215.14", 443))]
        return real(host, *args, **kwargs)

    monkeypatch.setattr("socket.getaddrinfo", getaddrinfo)


@pytest.fixture
def partner() -> Client:
    return Client(REMOTE_ADDR=PARTNER_ADDRESS)


@pytest.fixture
def endpoint(make_account) -> Endpoint:
    return services.endpoint_create(account_id=make_account().pk, url=URL, events=["pet.created"])


def test_an_endpoint_made_through_the_api_is_recorded_as_the_keys(partner, api_key, key_row):
    response = partner.post(
        "/v1/webhook_endpoints",
        json.dumps({"url": URL, "events": ["order.placed"]}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {api_key}"},
    )

    assert response.status_code == HTTPStatus.CREATED
    entry = only("endpoint.created")
    assert (entry.actor, entry.address) == (f"key:{keys.display_prefix(api_key)}", PARTNER_ADDRESS)
    assert (entry.target_type, entry.target_id, entry.target_repr) == (
        "webhooks.endpoint",
        str(response.json()["id"]),
        URL,
    )
    assert entry.changes == {
        "account": [None, key_row.account_id],
        "url": [None, URL],
        "events": [None, ["order.placed"]],
    }


def test_an_endpoint_deleted_through_the_api_is_recorded_as_the_keys(partner, api_key, key_row):
    made = services.endpoint_create(account_id=key_row.account_id, url=URL, events=["pet.created"])

    response = partner.delete(
        f"/v1/webhook_endpoints/{made.pk}", headers={"Authorization": f"Bearer {api_key}"}
    )

    assert response.status_code == HTTPStatus.NO_CONTENT
    entry = only("endpoint.deleted")
    assert (entry.actor, entry.address, entry.target_id) == (
        f"key:{key_row.prefix}",
        PARTNER_ADDRESS,
        str(made.pk),
    )
    assert entry.changes == {
        "account": [key_row.account_id, None],
        "url": [URL, None],
        "events": [["pet.created"], None],
    }


def test_disabling_and_enabling_in_bulk_is_recorded(manager_desk, endpoint):
    run_action(manager_desk, ENDPOINTS, "disable", [endpoint])
    run_action(manager_desk, ENDPOINTS, "enable", [endpoint])

    disabled, enabled = only("endpoint.disabled"), only("endpoint.enabled")
    assert (disabled.actor, disabled.address, disabled.target_id) == (
        "manager",
        MANAGER_ADDRESS,
        str(endpoint.pk),
    )
    assert disabled.changes == {
        "enabled": [True, False],
        "reason": [None, "Disabled by an account manager."],
    }
    assert (enabled.actor, enabled.changes) == ("manager", {"enabled": [False, True]})


def test_a_secret_rotated_in_the_admin_is_recorded_without_it(manager_desk, endpoint):
    old = endpoint.secret

    run_action(manager_desk, ENDPOINTS, "rotate_secret", [endpoint])

    endpoint.refresh_from_db()
    entry = only("endpoint.secret_rotated")
    assert (entry.actor, entry.address, entry.target_id) == (
        "manager",
        MANAGER_ADDRESS,
        str(endpoint.pk),
    )
    assert entry.changes == {}
    assert endpoint.secret != old


def test_endpoints_deleted_by_the_admins_bulk_delete_are_recorded(admin_desk, endpoint):
    response = run_action(admin_desk, ENDPOINTS, "delete_selected", [endpoint], post="yes")

    assert response.status_code == HTTPStatus.FOUND
    assert not Endpoint.objects.exists()
    [entry] = every("endpoint.deleted")
    assert (entry.actor, entry.address) == ("admin", ADMIN_ADDRESS)
    assert entry.target_id == str(endpoint.pk)
    assert entry.changes["url"] == [URL, None]


def test_an_endpoint_the_worker_disables_is_recorded_as_the_systems(endpoint):
    services.endpoint_set_enabled(endpoint, False, "The endpoint answered 410 Gone.")

    entry = only("endpoint.disabled")
    assert (entry.actor, entry.address) == ("system", "")
