"""The orders API: my orders only, strict bodies, 409s for what the workflow refuses."""

from __future__ import annotations

import json
from http import HTTPStatus

import pytest

from store import services
from store.models import Order
from tests.assertions import assert_error, assert_validation_error


@pytest.fixture
def other_auth(make_key):
    return {"Authorization": f"Bearer {make_key(name='Another shelter')}"}


def place(client, auth, body):
    return client.post(
        "/v1/store/orders", json.dumps(body), content_type="application/json", headers=auth
    )


def test_placing_an_order_answers_201_with_the_order(client, auth, make_pet):
    pet = make_pet()

    response = place(client, auth, {"petId": pet.pk})

    assert response.status_code == HTTPStatus.CREATED
    order = Order.objects.get()
    assert response["Location"] == f"/v1/store/orders/{order.pk}"
    assert response.json() == {
        "id": order.pk,
        "petId": pet.pk,
        "quantity": 1,
        "shipDate": None,
        "complete": False,
        "status": "pending",
    }
    pet.refresh_from_db()
    assert pet.status == "pending"


def test_an_unavailable_animal_gets_409(client, auth, make_pet):
    response = place(client, auth, {"petId": make_pet(status="sold").pk})

    assert_error(response, HTTPStatus.CONFLICT, "conflict")
    assert not Order.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [({}, "petId"), ({"petId": "1"}, "petId"), ({"petId": 10**6}, "petId"), ({"x": 1}, "x")],
)
def test_bad_bodies_get_400_and_change_nothing(client, auth, make_pet, body, field):
    pet = make_pet()
    if field == "x":
        body = {"petId": pet.pk, **body}

    response = place(client, auth, body)

    assert field in assert_validation_error(response, field)
    pet.refresh_from_db()
    assert pet.status == "available"
    assert not Order.objects.exists()


def test_listing_shows_only_my_orders(client, auth, other_auth, make_pet, key_row):
    mine = place(client, auth, {"petId": make_pet(name="A").pk}).json()
    place(client, other_auth, {"petId": make_pet(name="B").pk})

    response = client.get("/v1/store/orders", headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert response.json() == [mine]


def test_listing_filters_by_status_and_pages(client, auth, make_pet, key_row):
    orders = [
        services.order_place(account_id=key_row.account.pk, pet_id=make_pet(name=f"P{n}").pk)
        for n in range(5)
    ]
    services.order_cancel(order_id=orders[0].pk)

    seen: list[int] = []
    url: str | None = "/v1/store/orders?status=pending&limit=2"
    while url:
        response = client.get(url, headers=auth)
        assert response.status_code == HTTPStatus.OK
        seen += [order["id"] for order in response.json()]
        link = response.get("Link")
        url = link[link.index("<") + 1 : link.index(">")] if link else None

    assert seen == [order.pk for order in orders[1:]]


def test_listing_refuses_an_unknown_status(client, auth):
    assert_validation_error(client.get("/v1/store/orders?status=shipped", headers=auth), "status")


def test_cancelling_answers_204_and_frees_the_animal(client, auth, make_pet):
    order = place(client, auth, {"petId": make_pet().pk}).json()

    response = client.delete(f"/v1/store/orders/{order['id']}", headers=auth)

    assert response.status_code == HTTPStatus.NO_CONTENT
    assert Order.objects.get().status == "cancelled"
    assert Order.objects.get().pet.status == "available"


def test_another_accounts_order_is_not_found(client, auth, other_auth, make_pet):
    order = place(client, auth, {"petId": make_pet().pk}).json()

    response = client.delete(f"/v1/store/orders/{order['id']}", headers=other_auth)

    assert_error(response, HTTPStatus.NOT_FOUND, "not_found")
    assert Order.objects.get().status == "pending"


def test_a_delivered_order_cannot_be_cancelled(client, auth, make_pet):
    order = place(client, auth, {"petId": make_pet().pk}).json()
    services.order_approve(order_id=order["id"])
    services.order_deliver(order_id=order["id"])

    response = client.delete(f"/v1/store/orders/{order['id']}", headers=auth)

    assert_error(response, HTTPStatus.CONFLICT, "conflict")
    listed = client.get("/v1/store/orders", headers=auth).json()[0]
    assert (listed["status"], listed["complete"]) == ("delivered", True)
    assert listed["shipDate"]


def test_orders_need_a_key(client, db):
    assert_error(client.get("/v1/store/orders"), HTTPStatus.UNAUTHORIZED, "unauthorized")
