"""Every ``Location`` the API sends resolves: a GET of it with the same key answers 200 with what
was made, and another account's key gets 404 there."""

from __future__ import annotations

import json
from http import HTTPStatus

from petstore.scopes import Scope
from tests.assertions import assert_error


def post(client, path, body, auth):
    return client.post(path, json.dumps(body), content_type="application/json", headers=auth)


def test_every_location_resolves_with_the_same_key(client, make_key, make_pet, dog, settings):
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True
    auth = {"Authorization": f"Bearer {make_key(scopes=[scope.value for scope in Scope])}"}
    pet = make_pet("Ziggy")
    other = {"Authorization": f"Bearer {make_key(name='Another shelter')}"}
    made = [
        post(client, "/v1/pets", {"name": "Fido", "categoryId": dog.pk}, auth),
        post(client, "/v1/categories", {"name": "Reptiles"}, auth),
        post(client, "/v1/store/orders", {"petId": pet.pk}, auth),
        post(
            client,
            "/v1/webhook_endpoints",
            {"url": "http://127.0.0.1:9/hooks", "events": ["order.placed"]},
            auth,
        ),
    ]

    for response in made:
        assert response.status_code == HTTPStatus.CREATED, response.content
        location = response["Location"]
        followed = client.get(location, headers=auth)
        assert followed.status_code == HTTPStatus.OK, location
        created = {k: v for k, v in response.json().items() if k != "secret"}
        assert followed.json() == created, location
    # Orders and endpoints are the account's own; pets and categories everyone's.
    for response in made[2:]:
        assert_error(
            client.get(response["Location"], headers=other), HTTPStatus.NOT_FOUND, "not_found"
        )


def test_get_order_answers_the_order_as_listed(client, auth, make_pet):
    placed = post(client, "/v1/store/orders", {"petId": make_pet("Rex").pk}, auth).json()

    got = client.get(f"/v1/store/orders/{placed['id']}", headers=auth)

    assert got.status_code == HTTPStatus.OK
    assert [got.json()] == client.get("/v1/store/orders", headers=auth).json()
    assert_error(
        client.get("/v1/store/orders/999999", headers=auth), HTTPStatus.NOT_FOUND, "not_found"
    )


def test_get_order_needs_orders_read(client, make_key, make_pet):
    writer = {"Authorization": f"Bearer {make_key(scopes=['orders:write'])}"}
    placed = post(client, "/v1/store/orders", {"petId": make_pet("Rex").pk}, writer).json()

    response = client.get(f"/v1/store/orders/{placed['id']}", headers=writer)

    assert_error(response, HTTPStatus.FORBIDDEN, "forbidden")
