"""Made-up keys cost PostgreSQL nothing past a bounded few, and never cost a real key its turn.

The checksum is public, so anyone can make well-formed keys. A digest the service does not know
reaches PostgreSQL only within its address's own limit, and one found to be no key is remembered
in Redis."""

from __future__ import annotations

from http import HTTPStatus

from django.db import connection
from django.test.utils import CaptureQueriesContext

from apikeys.keys import generate_key

LIMIT = 5


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_a_flood_of_made_up_keys_makes_at_most_limit_plus_one_queries(client, settings, clock, db):
    settings.PETSTORE_ANONYMOUS_RATE = f"{LIMIT}/m"

    with CaptureQueriesContext(connection) as queries:
        statuses = [
            client.get("/v1/pets", headers=bearer(generate_key())).status_code for _ in range(60)
        ]

    assert statuses[:LIMIT] == [HTTPStatus.UNAUTHORIZED] * LIMIT
    assert set(statuses[LIMIT:]) == {HTTPStatus.TOO_MANY_REQUESTS}
    assert len(queries) <= LIMIT + 1


def test_a_repeated_made_up_key_makes_one_query(client, db):
    made_up = generate_key()

    with CaptureQueriesContext(connection) as queries:
        for _ in range(10):
            response = client.get("/v1/pets", headers=bearer(made_up))
            assert response.status_code == HTTPStatus.UNAUTHORIZED

    assert len(queries) == 1
    assert "digest" in queries.captured_queries[0]["sql"]


def test_a_real_key_is_admitted_from_an_address_flooding_made_up_keys(
    client, settings, clock, api_key
):
    settings.PETSTORE_ANONYMOUS_RATE = f"{LIMIT}/m"
    for _ in range(3 * LIMIT):
        client.get("/v1/pets", headers=bearer(generate_key()))

    response = client.get("/v1/pets", headers=bearer(api_key))

    assert response.status_code == HTTPStatus.OK
    assert response["X-RateLimit-Limit"] == "60"


def test_many_real_keys_behind_one_address_are_all_admitted(client, settings, make_key):
    settings.PETSTORE_ANONYMOUS_RATE = f"{LIMIT}/m"
    customers = [make_key(name=f"Customer {n}") for n in range(4 * LIMIT)]

    statuses = {client.get("/v1/pets", headers=bearer(key)).status_code for key in customers}

    assert statuses == {HTTPStatus.OK}
