"""An idempotent POST whose database connection dies at any point does its work once: the
animal and its answer commit together or not at all, so a retry either replays the first answer
or creates the animal, never a second one, and never waits for a claim nobody holds."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http import HTTPStatus
from typing import Any

import psycopg
import pytest
from django.db import connection, transaction

from events.models import Event
from pets.models import Pet
from petstore.models import IdempotencyRecord

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

BODY = {"name": "Rex"}
# Where the connection dies, as a query is about to run (or has run): the animal's INSERT, the
# answer's record, or just after the transaction that holds both commits.
POINTS = ["before the write", "after the write", "before the answer is stored", "after commit"]


def _terminate_own_backend() -> None:
    """End this process's database session from another one, as a server restart would."""
    pid = connection.connection.info.backend_pid
    settings = connection.settings_dict
    with psycopg.connect(
        host=settings["HOST"] or "127.0.0.1",
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        dbname=settings["NAME"],
        autocommit=True,
    ) as other:
        other.execute("SELECT pg_terminate_backend(%s, 10000)", [pid])


@contextmanager
def connection_lost(point: str) -> Iterator[list[str]]:
    """Kill the connection once, at ``point`` of the first request; what was seen."""
    seen: list[str] = []

    def wrapper(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any):
        if seen:
            return execute(sql, params, many, context)
        writes_pet = 'INSERT INTO "pets_pet"' in sql
        stores_answer = "petstore_idempotencyrecord" in sql and sql.lstrip().startswith(
            ("INSERT", "UPDATE")
        )
        if (point == "before the write" and writes_pet) or (
            point == "before the answer is stored" and stores_answer and _answered(params)
        ):
            seen.append(point)
            _terminate_own_backend()
        result = execute(sql, params, many, context)
        if writes_pet and point == "after the write":
            seen.append(point)
            _terminate_own_backend()
        if writes_pet and point == "after commit":
            seen.append(point)
            transaction.on_commit(_terminate_own_backend)
        return result

    with connection.execute_wrapper(wrapper):
        yield seen


def _answered(params: Any) -> bool:
    # The statement that keeps the answer holds its status (201); a bare claim holds none.
    return params is not None and HTTPStatus.CREATED in list(params)


def create(client, auth, dog):
    return client.post(
        "/v1/pets",
        json.dumps({**BODY, "categoryId": dog.pk}),
        content_type="application/json",
        headers={**auth, "Idempotency-Key": "adopt-rex"},
    )


@pytest.mark.parametrize("point", POINTS)
def test_a_connection_lost_anywhere_creates_one_animal_and_the_retry_answers_as_the_first(
    client, auth, dog, point
):
    with connection_lost(point) as seen:
        first = create(client, auth, dog)
    # The retry is a request of its own, on a connection of its own (the test client keeps one
    # for the whole test, broken or not).
    connection.close()
    assert seen == [point]
    assert first.status_code in (HTTPStatus.CREATED, HTTPStatus.SERVICE_UNAVAILABLE)

    retry = create(client, auth, dog)
    again = create(client, auth, dog)

    print(f"\n{point}: first {first.status_code}, retry {retry.status_code}")
    # A first answer that was not an error is what every retry gets; one that was, is not kept.
    answered = first if first.status_code == HTTPStatus.CREATED else retry
    assert retry.status_code == HTTPStatus.CREATED, retry.content
    assert retry.json() == answered.json()
    assert again.json() == answered.json()
    assert again["Idempotent-Replayed"] == "true"
    assert list(Pet.objects.values_list("id", flat=True)) == [answered.json()["id"]]
    assert Event.objects.filter(type="pet.created").count() == 1
    assert IdempotencyRecord.objects.get().status_code == HTTPStatus.CREATED
