"""The hot paths cost a fixed, small number of queries, and never a COUNT(*).

A key is found by its digest in the process's key cache, else in Redis (its record, written when
the key was issued or last read), else in PostgreSQL (one query, by digest on the unique index);
the rate limiter's one Redis round trip keeps the cache honest (see apikeys.keyring). So a warm
request costs only its own data queries.
"""

from __future__ import annotations

import json
from http import HTTPStatus

import pytest
from django.conf import settings
from django.test.utils import CaptureQueriesContext

from apikeys.keyring import RECORD
from apikeys.keys import digest
from apikeys.models import ApiKey
from apikeys.services import apikey_revoke
from events.models import Event
from pets.models import Pet
from petstore import redis


@pytest.fixture
def warm(client, auth, key_row):
    """One request first: the key is cached and its last_used_at is fresh."""
    assert client.get("/v1/categories", headers=auth).status_code == HTTPStatus.OK
    return key_row


def assert_no_count(queries: CaptureQueriesContext) -> None:
    for query in queries.captured_queries:
        assert "COUNT(" not in query["sql"].upper(), query["sql"]


def test_listing_pets_is_one_query(client, auth, warm, make_pet, django_assert_num_queries):
    for i in range(25):
        make_pet(f"Pet {i}", status="sold" if i % 2 else "available")

    with django_assert_num_queries(1) as queries:
        response = client.get("/v1/pets", {"limit": "5", "status": "sold"}, headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert len(response.json()) == 5
    assert "pets_pet" in queries.captured_queries[0]["sql"]
    assert_no_count(queries)


def test_a_later_page_costs_the_same(client, auth, warm, make_pet, django_assert_num_queries):
    for i in range(6):
        make_pet(f"Pet {i}")
    link = client.get("/v1/pets", {"limit": "2"}, headers=auth)["Link"]
    next_url = link.removeprefix("<").split(">;")[0]

    with django_assert_num_queries(1) as queries:
        response = client.get(next_url, headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert len(response.json()) == 2
    assert_no_count(queries)
    assert "OFFSET" not in queries.captured_queries[0]["sql"].upper()


def test_getting_a_pet_is_one_query(client, auth, warm, make_pet, django_assert_num_queries):
    pet = make_pet()

    with django_assert_num_queries(1) as queries:
        response = client.get(f"/v1/pets/{pet.pk}", headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert_no_count(queries)


def test_creating_a_pet_and_its_event_is_one_query(
    client, auth, warm, dog, django_assert_num_queries
):
    # INSERT … SELECT from the category's row … RETURNING, and the event's INSERT, in one
    # statement: the category is checked by it, and the event stands or falls with the pet.
    with django_assert_num_queries(1) as queries:
        response = client.post(
            "/v1/pets",
            data=json.dumps({"name": "Rex", "categoryId": dog.pk}),
            content_type="application/json",
            headers=auth,
        )

    assert response.status_code == HTTPStatus.CREATED
    assert Pet.objects.filter(pk=response.json()["id"]).exists()
    assert Event.objects.get().data == response.json()
    assert queries.captured_queries[-1]["sql"].upper().startswith("WITH NEW_PET AS (INSERT")
    assert_no_count(queries)


def test_a_key_seen_for_the_first_time_costs_no_lookup(
    client, auth, key_row, make_pet, django_assert_num_queries
):
    # Issuing the key wrote its record to Redis: the service knows it without asking.
    make_pet()

    # The first last_used_at of the minute, the data.
    with django_assert_num_queries(2) as queries:
        response = client.get("/v1/pets", headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert queries.captured_queries[0]["sql"].upper().startswith("UPDATE")


def test_a_key_redis_does_not_know_costs_one_lookup(
    client, auth, key_row, make_pet, django_assert_num_queries
):
    make_pet()
    redis_client = redis.client()
    assert redis_client is not None
    redis_client.execute("DEL", f"{settings.REDIS_KEY_PREFIX}{RECORD}{key_row.digest}")

    # The lookup, the first last_used_at of the minute, the data.
    with django_assert_num_queries(3) as queries:
        response = client.get("/v1/pets", headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert "digest" in queries.captured_queries[0]["sql"]
    assert queries.captured_queries[1]["sql"].upper().startswith("UPDATE")


def test_a_change_to_another_key_costs_the_next_request_no_lookup(
    client, auth, warm, make_key, django_assert_num_queries
):
    other = make_key(name="Another shelter")
    apikey_revoke(api_key=ApiKey.objects.get(digest=digest(other)))

    # Every process's cached keys are out of date, but this key's record in Redis is not.
    with django_assert_num_queries(1):
        response = client.get("/v1/categories", headers=auth)

    assert response.status_code == HTTPStatus.OK


def test_a_change_to_the_key_sends_its_next_request_back_to_the_database(
    client, auth, warm, django_assert_num_queries
):
    warm.set_scopes(["pets:read"])
    warm.save()

    with django_assert_num_queries(2) as queries:
        response = client.get("/v1/categories", headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert "digest" in queries.captured_queries[0]["sql"]
