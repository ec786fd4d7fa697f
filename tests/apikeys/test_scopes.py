"""Each operation needs its scope: a key without it gets 403, nothing is written, and the call
still counts against the limit."""

from __future__ import annotations

import json
from http import HTTPStatus

import pytest

from apikeys.models import ALL_SCOPES, ApiKey
from pets.models import Pet
from store import services as store_services
from store.models import Order
from tests.assertions import assert_error


def bearer(raw: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {raw}"}


@pytest.fixture
def read_only(make_key) -> dict[str, str]:
    return bearer(make_key(scopes=["pets:read", "orders:read"]))


def post(client, path, body, headers):
    return client.post(path, json.dumps(body), content_type="application/json", headers=headers)


def test_a_read_only_key_lists_and_gets(client, read_only, make_pet):
    pet = make_pet()

    assert client.get("/v1/pets", headers=read_only).status_code == HTTPStatus.OK
    assert client.get(f"/v1/pets/{pet.pk}", headers=read_only).status_code == HTTPStatus.OK
    assert client.get("/v1/categories", headers=read_only).status_code == HTTPStatus.OK
    assert client.get("/v1/store/orders", headers=read_only).status_code == HTTPStatus.OK


def test_a_read_only_key_cannot_add_an_animal(client, read_only, dog):
    response = post(client, "/v1/pets", {"name": "Rex", "categoryId": dog.pk}, read_only)

    body = assert_error(response, HTTPStatus.FORBIDDEN, "forbidden")
    assert "`pets:write`" in body["message"]
    assert "`orders:read`, `pets:read`" in body["message"]
    assert not Pet.objects.exists()


def test_a_read_only_key_cannot_place_an_order(client, read_only, make_pet):
    pet = make_pet()

    response = post(client, "/v1/store/orders", {"petId": pet.pk}, read_only)

    body = assert_error(response, HTTPStatus.FORBIDDEN, "forbidden")
    assert "`orders:write`" in body["message"]
    assert not Order.objects.exists()
    pet.refresh_from_db()
    assert pet.status == "available"


def test_a_read_only_key_cannot_cancel_an_order(client, make_key, make_account, make_pet):
    account = make_account()
    order = store_services.order_place(account_id=account.pk, pet_id=make_pet().pk)
    reader = bearer(make_key(account=account, scopes=["orders:read"]))

    response = client.delete(f"/v1/store/orders/{order.pk}", headers=reader)

    assert_error(response, HTTPStatus.FORBIDDEN, "forbidden")
    order.refresh_from_db()
    assert order.status == "pending"


def test_a_refused_idempotent_post_stores_nothing_to_replay(client, read_only, dog):
    headers = {**read_only, "Idempotency-Key": "first-try"}

    first = post(client, "/v1/pets", {"name": "Rex", "categoryId": dog.pk}, headers)
    second = post(client, "/v1/pets", {"name": "Rex", "categoryId": dog.pk}, headers)

    assert first.status_code == second.status_code == HTTPStatus.FORBIDDEN
    assert "Idempotent-Replayed" not in second


def test_a_refused_call_counts_against_the_limit(client, read_only, dog):
    before = client.get("/v1/pets", headers=read_only)

    post(client, "/v1/pets", {"name": "Rex", "categoryId": dog.pk}, read_only)
    after = client.get("/v1/pets", headers=read_only)

    remaining = int(before["X-RateLimit-Remaining"])
    assert int(after["X-RateLimit-Remaining"]) == remaining - 2


def test_a_missing_scope_is_checked_before_the_body(client, read_only):
    # An operation the key may not call is refused as such, whatever is sent.
    response = post(client, "/v1/pets", {"nonsense": True}, read_only)

    assert_error(response, HTTPStatus.FORBIDDEN, "forbidden")


def test_a_key_without_pets_read_cannot_list_animals(client, make_key):
    orders_only = bearer(make_key(scopes=["orders:read", "orders:write"]))

    assert_error(client.get("/v1/pets", headers=orders_only), HTTPStatus.FORBIDDEN, "forbidden")
    assert client.get("/v1/store/orders", headers=orders_only).status_code == HTTPStatus.OK


def test_a_scope_change_holds_on_the_very_next_request(client, api_key, dog):
    headers = bearer(api_key)
    assert client.get("/v1/pets", headers=headers).status_code == HTTPStatus.OK  # cached now
    key = ApiKey.objects.get()
    key.set_scopes(["pets:read"])
    key.save()

    refused = post(client, "/v1/pets", {"name": "Rex", "categoryId": dog.pk}, headers)

    assert_error(refused, HTTPStatus.FORBIDDEN, "forbidden")
    key.set_scopes(ALL_SCOPES)
    key.save()
    created = post(client, "/v1/pets", {"name": "Rex", "categoryId": dog.pk}, headers)
    assert created.status_code == HTTPStatus.CREATED


def test_keys_are_issued_with_every_scope_but_categories_write_unless_told_otherwise(key_row):
    assert key_row.scope_list == sorted(set(ALL_SCOPES) - {"categories:write"})
    assert key_row.kind == "secret"


def test_options_and_unknown_methods_answer_as_before_whatever_the_scopes(client, make_key):
    no_pets = bearer(make_key(scopes=["orders:read"]))

    assert client.options("/v1/pets", headers=no_pets).status_code == HTTPStatus.OK
    assert_error(
        client.put("/v1/pets", headers=no_pets), HTTPStatus.METHOD_NOT_ALLOWED, "method_not_allowed"
    )
