"""Who may keep each answer, through HTTP: every operation of the document, called as a client
calls it through gunicorn, answers ``no-store`` when its answer carries a secret and
``private`` otherwise, refusals included, as the document declares."""

from __future__ import annotations

from collections.abc import Iterator
from http import HTTPStatus
from typing import Any

import pytest

from apikeys.models import ALL_SCOPES
from petstore.cache_control import NO_STORE, PRIVATE
from tests.petstore.operations import Operation, World, document, operations
from tests.reliability.conftest import Instance, start_instance

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


@pytest.fixture
def instance(monkeypatch) -> Iterator[Instance]:
    monkeypatch.setenv("PETSTORE_WEBHOOK_ALLOW_PRIVATE", "1")  # the endpoint is on loopback
    instance = start_instance(workers=1)
    yield instance
    instance.process.terminate()
    instance.process.wait(timeout=15)


def carries_secret(operation: Operation) -> bool:
    return any("secret" in schema.get("properties", {}) for schema in operation.success_schemas())


def made(reply: Any, status: int = HTTPStatus.CREATED) -> int:
    assert reply.status == status, reply.body
    return reply.body["id"]


def world(instance: Instance, key: str, make_pet, dog) -> World:
    """Rows for every path's ids, made through the API where it makes them."""
    adopted = make_pet("Adopted")
    endpoint = made(
        instance.call(
            "POST",
            "/v1/webhook_endpoints",
            key,
            {"url": World({}).receiver_url, "events": ["pet.created"]},
        )
    )
    sent = instance.call(
        "POST", f"/v1/webhook_endpoints/{endpoint}/test", key, {"type": "pet.created"}
    )
    return World(
        {
            "petId": make_pet("Walked").pk,
            "categoryId": dog.pk,
            "orderId": made(instance.call("POST", "/v1/store/orders", key, {"petId": adopted.pk})),
            "endpointId": endpoint,
            "deliveryId": made(sent, HTTPStatus.ACCEPTED),
        }
    )


def test_every_operation_says_who_may_keep_its_answer(instance, make_key, make_pet, dog):
    key = make_key(plan="enterprise", scopes=list(ALL_SCOPES))
    doc = document()
    place = world(instance, key, make_pet, dog)
    declared = doc["components"]["headers"]["Cache-Control"]["schema"]["enum"]
    walked = operations(doc)

    secret = []
    for operation in walked:
        method, url = operation.method.upper(), place.url(operation)
        answer = instance.call(method, url, key, place.body(operation))
        refused = instance.call(method, url, "petstore_sk_not_a_key", place.body(operation))

        assert str(answer.status) in operation.spec["responses"], (operation.id, answer.body)
        assert 200 <= answer.status < 300, (operation.id, answer.body)
        expected = NO_STORE if carries_secret(operation) else PRIVATE
        assert answer.headers.get("Cache-Control") == expected, operation.id
        assert refused.status == HTTPStatus.UNAUTHORIZED
        assert refused.headers.get("Cache-Control") == PRIVATE, operation.id
        for response in operation.spec["responses"].values():
            assert "Cache-Control" in response["headers"], operation.id
        if expected == NO_STORE:
            secret.append(operation.id)

    assert declared == [PRIVATE, NO_STORE]
    # The walk met both kinds of answer: the secrets' and every other.
    assert sorted(secret) == ["createWebhookEndpoint", "rotateWebhookEndpointSecret"]
    assert len(walked) > len(secret)
