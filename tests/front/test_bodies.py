"""Bodies reach the service whole or not at all; chunked ones arrive with their length."""

from __future__ import annotations

import json
from collections.abc import Callable
from http import HTTPStatus

import pytest

from deploy.serve import Front
from pets.models import Category, Pet
from tests.front.conftest import assert_front_error, send_raw

# The service sees only committed rows.
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def _post_head(key: str, extra: str) -> bytes:
    return (
        "POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Bearer {key}\r\nContent-Type: application/json\r\n{extra}\r\n"
    ).encode()


def _chunked(body: bytes, size: int) -> bytes:
    pieces = [body[i : i + size] for i in range(0, len(body), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces) + b"0\r\n\r\n"


def test_an_incomplete_body_is_refused_and_nothing_is_written(
    front: Front, api_key: str, dog: Category
):
    body = json.dumps({"name": "Half", "categoryId": dog.id}).encode()
    assert len(body) < 200
    request = _post_head(api_key, "X-Request-ID: incomplete-body\r\nContent-Length: 200\r\n")

    # The whole JSON object, then the client closes its side with 200 bytes declared.
    reply = send_raw(front, request + body, close_write=True)

    # nginx gives up on the request (it logs a 400) and closes; gunicorn never sees it.
    assert reply is None
    assert not Pet.objects.filter(name="Half").exists()
    access = (front.run_dir / "logs" / "access.log").read_text()
    line = next(line for line in access.splitlines() if '"incomplete-body"' in line)
    assert json.loads(line)["status"] == HTTPStatus.BAD_REQUEST
    assert json.loads(line)["upstream_time"] == ""


def test_a_valid_chunked_create_gets_201(front: Front, api_key: str, dog: Category):
    body = json.dumps({"name": "Chunky", "categoryId": dog.id}).encode()

    reply = send_raw(
        front, _post_head(api_key, "Transfer-Encoding: chunked\r\n") + _chunked(body, 7)
    )

    assert reply is not None
    assert reply.status == HTTPStatus.CREATED, reply.body
    created = reply.json()
    assert created["name"] == "Chunky"
    assert Pet.objects.get(id=created["id"]).name == "Chunky"


def test_an_oversized_chunked_body_gets_413_and_nothing_is_written(
    front: Front, api_key: str, dog: Category
):
    body = json.dumps({"name": "Huge", "categoryId": dog.id, "note": "x" * 70_000}).encode()

    reply = send_raw(
        front, _post_head(api_key, "Transfer-Encoding: chunked\r\n") + _chunked(body, 4096)
    )

    assert_front_error(reply, 413, "payload_too_large")
    assert not Pet.objects.filter(name="Huge").exists()


def test_a_body_of_exactly_64_kib_reaches_the_service(
    front: Front, make_key: Callable[..., str], dog: Category
):
    # The front's limit is the service's: 64 KiB passes nginx, and the service answers it.
    padding = 65_536 - len(json.dumps({"name": "Edge", "categoryId": dog.id, "x": ""}))
    body = json.dumps({"name": "Edge", "categoryId": dog.id, "x": "y" * padding}).encode()
    assert len(body) == 65_536

    reply = send_raw(front, _post_head(make_key(), f"Content-Length: {len(body)}\r\n") + body)

    assert reply is not None
    assert reply.status == HTTPStatus.BAD_REQUEST  # the unknown field "x", said by the service
    assert reply.json()["code"] == "validation_error"
