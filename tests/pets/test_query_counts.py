"""The hot paths cost a fixed, small number of queries, and never a COUNT(*).

Each request authenticates with one query: the key is looked up by its SHA-256 digest on the
unique index, with its account and plan joined in. That lookup is deliberately uncached, so that
a revocation or suspension is seen by the very next request in every process.
"""

from __future__ import annotations

import json
from http import HTTPStatus

import pytest
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apikeys.models import ApiKey
from pets.models import Pet


@pytest.fixture
def recently_used_key(key_row: ApiKey) -> ApiKey:
    # A key used within the last minute is not written to again (last_used_at), so the request
    # under test makes only its reads.
    ApiKey.objects.filter(pk=key_row.pk).update(last_used_at=timezone.now())
    return key_row


def assert_no_count(queries: CaptureQueriesContext) -> None:
    for query in queries.captured_queries:
        assert "COUNT(" not in query["sql"].upper(), query["sql"]


def test_listing_pets_takes_the_key_lookup_and_one_query(
    client, auth, recently_used_key, make_pet, django_assert_num_queries
):
    for i in range(25):
        make_pet(f"Pet {i}", status="sold" if i % 2 else "available")

    with django_assert_num_queries(2) as queries:
        response = client.get("/v1/pets", {"limit": "5", "status": "sold"}, headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert len(response.json()) == 5
    assert "digest" in queries.captured_queries[0]["sql"]
    assert_no_count(queries)


def test_a_later_page_costs_the_same(
    client, auth, recently_used_key, make_pet, django_assert_num_queries
):
    for i in range(6):
        make_pet(f"Pet {i}")
    link = client.get("/v1/pets", {"limit": "2"}, headers=auth)["Link"]
    next_url = link.removeprefix("<").split(">;")[0]

    with django_assert_num_queries(2) as queries:
        response = client.get(next_url, headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert len(response.json()) == 2
    assert_no_count(queries)
    assert "OFFSET" not in queries.captured_queries[-1]["sql"].upper()


def test_getting_a_pet_takes_the_key_lookup_and_one_query(
    client, auth, recently_used_key, make_pet, django_assert_num_queries
):
    pet = make_pet()

    with django_assert_num_queries(2) as queries:
        response = client.get(f"/v1/pets/{pet.pk}", headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert_no_count(queries)


def test_creating_a_pet_takes_at_most_three_queries(
    client, auth, recently_used_key, dog, django_assert_max_num_queries
):
    # The key lookup, the category check, the INSERT.
    with django_assert_max_num_queries(3) as queries:
        response = client.post(
            "/v1/pets",
            data=json.dumps({"name": "Rex", "categoryId": dog.pk}),
            content_type="application/json",
            headers=auth,
        )

    assert response.status_code == HTTPStatus.CREATED
    assert Pet.objects.filter(pk=response.json()["id"]).exists()
    assert any(q["sql"].upper().startswith("INSERT") for q in queries.captured_queries)
    assert_no_count(queries)


def test_a_key_not_used_for_a_minute_costs_one_more_write(
    client, auth, key_row, make_pet, django_assert_num_queries
):
    # The first request of the minute records last_used_at: the lookup, the UPDATE, the data.
    make_pet()

    with django_assert_num_queries(3) as queries:
        response = client.get("/v1/pets", headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert queries.captured_queries[1]["sql"].upper().startswith("UPDATE")
