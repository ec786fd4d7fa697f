"""Concurrent requests, each on its own database connection: exactly one wins."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http import HTTPStatus

import pytest
from django.db import connection
from django.test import Client

from pets.models import Pet
from store.models import Order

THREADS = 20


def race(request: Callable[[Client], object]) -> list:
    """Run ``request`` from THREADS threads released at once; their responses."""
    start = threading.Barrier(THREADS)
    responses: list = []
    lock = threading.Lock()

    def one() -> None:
        client = Client()
        try:
            start.wait()
            response = request(client)
            with lock:
                responses.append(response)
        finally:
            connection.close()

    threads = [threading.Thread(target=one) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return responses


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_twenty_orders_for_one_animal_make_one_order(auth, make_pet):
    pet = make_pet()

    responses = race(
        lambda client: client.post(
            "/v1/store/orders",
            json.dumps({"petId": pet.pk}),
            content_type="application/json",
            headers=auth,
        )
    )

    statuses = sorted(r.status_code for r in responses)
    print(f"\nplaceOrder x{THREADS}: {statuses.count(201)} x 201, {statuses.count(409)} x 409")
    assert statuses == [HTTPStatus.CREATED] + [HTTPStatus.CONFLICT] * (THREADS - 1)
    assert Order.objects.count() == 1
    pet.refresh_from_db()
    assert pet.status == "pending"


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_twenty_creates_with_one_idempotency_key_make_one_pet(auth, dog):
    responses = race(
        lambda client: client.post(
            "/v1/pets",
            json.dumps({"name": "Rex", "categoryId": dog.pk}),
            content_type="application/json",
            headers={**auth, "Idempotency-Key": "once"},
        )
    )

    pet = Pet.objects.get()
    created = [r for r in responses if r.status_code == HTTPStatus.CREATED]
    others = [r for r in responses if r.status_code != HTTPStatus.CREATED]
    print(f"\ncreatePet x{THREADS}, one key: {len(created)} x 201, {len(others)} x 409")
    assert created
    assert all(r.json()["id"] == pet.pk for r in created)
    assert all(
        r.status_code == HTTPStatus.CONFLICT and r.json()["code"] == "conflict" for r in others
    )
