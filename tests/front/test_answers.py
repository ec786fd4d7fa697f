"""Whatever the front accepts, it passes: long query strings with a next page, a Host the
service refuses, a method nginx itself refuses."""

from __future__ import annotations

from http import HTTPStatus

import pytest

from deploy.serve import Front
from pets.models import Category, Pet
from tests.front.conftest import assert_front_error, send_raw

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

# nginx's request line holds 4 KiB: the longest query it accepts on this path.
LINE_LIMIT = 4096


def test_the_longest_accepted_query_with_a_next_page_answers_200(
    front: Front, api_key: str, dog: Category
):
    pets = Pet.objects.bulk_create(Pet(name=f"Pet {n}", category=dog) for n in range(3))
    head = "GET /v1/pets?limit=1&id="
    tail = " HTTP/1.1\r\n"
    # Only what the listing takes (an unknown parameter, or one sent twice, is a 400): the
    # animals' ids, written with as many leading zeros as the line holds.
    room = (LINE_LIMIT - len(head) - len(tail) - 1 - (len(pets) - 1)) // len(pets)
    padding = ",".join(str(pet.pk).zfill(room) for pet in pets)
    assert len(padding) >= 3900

    reply = send_raw(
        front,
        f"{head}{padding}{tail}Host: 127.0.0.1\r\nAuthorization: Bearer {api_key}\r\n"
        "Connection: close\r\n\r\n".encode(),
    )

    assert reply is not None
    assert reply.status == HTTPStatus.OK, reply.body
    link = reply.headers["link"]
    assert "cursor=" in link
    assert "limit=1" in link
    assert link.count("id=") == 1


def test_a_host_the_service_does_not_serve_is_a_400_with_the_limit_headers(front: Front):
    reply = send_raw(
        front, b"GET /v1/pets HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"
    )

    assert_front_error(reply, HTTPStatus.BAD_REQUEST, "malformed_request")
    assert reply is not None
    assert reply.headers["x-ratelimit-limit"] == "60"
    assert int(reply.headers["x-ratelimit-remaining"]) < 60


def test_trace_is_a_405_that_says_what_is_allowed(front: Front):
    reply = send_raw(
        front, b"TRACE /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )

    assert_front_error(reply, HTTPStatus.METHOD_NOT_ALLOWED, "method_not_allowed")
    assert reply is not None
    assert "GET" in reply.headers["allow"]
    assert "TRACE" not in reply.headers["allow"]
