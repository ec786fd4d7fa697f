"""category.created: written with the category whichever way it is added (the API, the admin),
every account's to see with pets:read (its webhook: tests/webhooks/test_category_created.py);
and the feed's type filter takes every type at once."""

from __future__ import annotations

import json
from http import HTTPStatus

import pytest

from events.models import Event
from events.types import AUDIENCE, EVENT_TYPES
from pets.models import Category

pytestmark = pytest.mark.django_db


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def add_category(client, key: str, name: str = "Ferret") -> dict:
    response = client.post(
        "/v1/categories",
        json.dumps({"name": name, "description": "Small and curious"}),
        content_type="application/json",
        headers=bearer(key),
    )
    assert response.status_code == HTTPStatus.CREATED
    return response.json()


@pytest.fixture
def curator(make_key) -> str:
    return make_key(scopes=["pets:read", "categories:write", "webhooks:write"])


def test_a_new_category_is_every_account_s_event(client, curator, make_key):
    category = add_category(client, curator)
    other = make_key(scopes=["events:read", "pets:read"])
    without = make_key(scopes=["events:read", "orders:read"])

    seen = client.get("/v1/events?type=category.created", headers=bearer(other)).json()
    unseen = client.get("/v1/events", headers=bearer(without)).json()

    assert [(e["type"], e["data"]) for e in seen] == [("category.created", category)]
    assert unseen == []


def test_a_category_added_in_the_admin_has_its_event(staff_client):
    response = staff_client.post(
        "/admin/pets/category/add/", {"name": "Parrot", "description": "Talks"}
    )

    assert response.status_code == HTTPStatus.FOUND
    category = Category.objects.get(name="Parrot")
    event = Event.objects.get(type="category.created")
    assert event.data == {"id": category.pk, "name": "Parrot", "description": "Talks"}
    assert event.account_id is None


def test_a_category_that_is_not_added_has_no_event(client, curator):
    add_category(client, curator, "Ferret")
    response = client.post(
        "/v1/categories",
        json.dumps({"name": "FERRET"}),
        content_type="application/json",
        headers=bearer(curator),
    )

    assert response.status_code == HTTPStatus.CONFLICT
    assert Event.objects.filter(type="category.created").count() == 1


@pytest.mark.parametrize("separator", [",", ", "])
def test_the_type_filter_takes_every_type_at_once(client, make_key, separator):
    key = make_key(scopes=["events:read", "pets:read", "orders:read"])

    response = client.get("/v1/events", {"type": separator.join(EVENT_TYPES)}, headers=bearer(key))

    assert response.status_code == HTTPStatus.OK


def test_every_type_has_an_audience():
    assert sorted(AUDIENCE) == sorted(EVENT_TYPES)
