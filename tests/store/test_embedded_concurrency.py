"""The embedded set-up of `make run` (SQLite, no Redis, Django's threaded server) keeps the same
promises under concurrency as PostgreSQL: one order wins, the rest get 409, never a 5xx."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from http import HTTPStatus

import pytest

from tests.embedded import EmbeddedServer, embedded_env, manage, runserver

THREADS = 20


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedServer]:
    env = embedded_env(tmp_path_factory.mktemp("embedded") / "db.sqlite3")
    manage(env, "migrate", "--verbosity", "0")
    manage(env, "seed_demo")
    key = manage(
        env, "createapikey", "--plan", "enterprise", "--per-minute", "10000", "--per-day", "100000"
    ).splitlines()[-1]
    with runserver(env, key) as server:
        yield server


def race(send: Callable[[], tuple]) -> list[tuple]:
    start = threading.Barrier(THREADS)
    replies: list[tuple] = []
    lock = threading.Lock()

    def one() -> None:
        start.wait()
        reply = send()
        with lock:
            replies.append(reply)

    threads = [threading.Thread(target=one) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return replies


def an_available_pet(server: EmbeddedServer) -> int:
    status, pets = server.call("GET", "/v1/pets?status=available&limit=1")
    assert status == HTTPStatus.OK
    return pets[0]["id"]


def test_twenty_orders_for_one_animal_make_one_order(embedded):
    pet_id = an_available_pet(embedded)

    replies = race(lambda: embedded.call("POST", "/v1/store/orders", {"petId": pet_id}))

    statuses = sorted(status for status, _ in replies)
    print(f"\nembedded placeOrder x{THREADS}: {statuses}")
    assert statuses == [HTTPStatus.CREATED] + [HTTPStatus.CONFLICT] * (THREADS - 1)
    assert all(body["code"] == "conflict" for status, body in replies if status == 409)
    assert embedded.call("GET", f"/v1/pets/{pet_id}")[1]["status"] == "pending"
    status, orders = embedded.call("GET", "/v1/store/orders?limit=100")
    assert status == HTTPStatus.OK
    assert [order["petId"] for order in orders].count(pet_id) == 1


def test_twenty_creates_with_one_idempotency_key_make_one_pet(embedded):
    body = {"name": "Embedded Rex", "categoryId": 1}

    replies = race(
        lambda: embedded.call("POST", "/v1/pets", body, **{"Idempotency-Key": "embedded-once"})
    )

    created = [reply for status, reply in replies if status == HTTPStatus.CREATED]
    others = [(status, reply) for status, reply in replies if status != HTTPStatus.CREATED]
    print(f"\nembedded createPet x{THREADS}, one key: {len(created)} x 201, {len(others)} x 409")
    assert created
    assert len({pet["id"] for pet in created}) == 1
    assert all(status == HTTPStatus.CONFLICT for status, _ in others), others
    status, pets = embedded.call("GET", "/v1/pets?limit=100")
    assert status == HTTPStatus.OK
    assert [pet["name"] for pet in pets].count("Embedded Rex") == 1
