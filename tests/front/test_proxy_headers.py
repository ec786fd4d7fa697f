"""Behind nginx the service trusts exactly one proxy: the client's address and scheme are nginx's
to say, and what a client writes in X-Forwarded-* changes nothing."""

from __future__ import annotations

import time
from collections.abc import Callable
from http import HTTPStatus

import pytest

from deploy.serve import Front
from pets.models import Category, Pet
from petstore import redis
from tests.front.conftest import send_raw

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

ANONYMOUS_LIMIT = 60  # PETSTORE_ANONYMOUS_RATE's default


def _anonymous(front: Front, n: int) -> tuple[int, dict[str, str]]:
    # Another claimed address on every request, in every header a proxy might read.
    spoofed = f"203.0.113.{n % 250}"
    reply = send_raw(
        front,
        (
            "GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"X-Forwarded-For: {spoofed}, 198.51.100.{n % 250}\r\n"
            f"X-Real-IP: {spoofed}\r\nForwarded: for={spoofed}\r\n\r\n"
        ).encode(),
    )
    assert reply is not None
    return reply.status, reply.headers


def test_a_spoofed_x_forwarded_for_cannot_dodge_the_per_address_limit(front: Front):
    # The per-address window's end is in X-RateLimit-Reset: start where all requests fit in one.
    _, headers = _anonymous(front, 0)
    left = int(headers["x-ratelimit-reset"]) - time.time()
    if left < 15:
        time.sleep(left + 1)
    shared = redis.client()
    assert shared is not None
    shared.execute("FLUSHDB")  # the counters, as the suite's fixtures forget them

    statuses = [_anonymous(front, n)[0] for n in range(ANONYMOUS_LIMIT + 10)]

    print(f"\n70 anonymous requests, each claiming another address: {statuses.count(401)} admitted")
    assert statuses[:ANONYMOUS_LIMIT] == [HTTPStatus.UNAUTHORIZED] * ANONYMOUS_LIMIT
    assert statuses[ANONYMOUS_LIMIT:] == [HTTPStatus.TOO_MANY_REQUESTS] * 10


def test_a_client_cannot_claim_https_through_the_front(
    front: Front, make_key: Callable[..., str], dog: Category
):
    Pet.objects.create(name="One", category=dog)
    Pet.objects.create(name="Two", category=dog)

    reply = send_raw(
        front,
        (
            "GET /v1/pets?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Bearer {make_key()}\r\n"
            "X-Forwarded-Proto: https\r\nX-Forwarded-Ssl: on\r\nForwarded: proto=https\r\n\r\n"
        ).encode(),
    )

    assert reply is not None
    assert reply.status == HTTPStatus.OK
    # request.is_secure() was False: the next page's URL is http, and no HSTS was sent.
    assert reply.headers["link"].startswith("<http://127.0.0.1/v1/pets?")
    assert "strict-transport-security" not in reply.headers
