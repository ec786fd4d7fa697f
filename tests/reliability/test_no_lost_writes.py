"""2,000 creates from 32 clients that retry on timeouts and 429s: every pet once, none twice."""

from __future__ import annotations

import itertools
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus

import pytest

from pets.models import Pet
from tests.waiting import READY_SECONDS

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

CREATES = 2_000
CLIENTS = 32


def test_retried_creates_make_exactly_one_pet_each(two_instances, make_key, dog):
    key = make_key(plan="enterprise")
    instances = two_instances
    retries = {"timeout": 0, "429": 0, "409": 0}

    def create(n: int) -> int:
        idempotency_key = str(uuid.uuid4())
        body = {"name": f"Pet {n}", "categoryId": dog.pk}
        # Retried until a deadline, not a number of times: on a loaded machine the first
        # attempt is served for longer, and every retry meanwhile is a quick 409.
        deadline = time.monotonic() + READY_SECONDS
        for attempt in itertools.count():
            if time.monotonic() > deadline:
                break
            instance = instances[(n + attempt) % 2]  # a retry may well reach the other one
            try:
                reply = instance.call(
                    "POST",
                    "/v1/pets",
                    key,
                    body,
                    {"Idempotency-Key": idempotency_key},
                    timeout=5 if attempt else 0.05,  # the first attempt often times out
                )
            except (TimeoutError, OSError):
                retries["timeout"] += 1
                continue
            if reply.status == HTTPStatus.CREATED:
                return reply.body["id"]
            # 429: back off; 409: the first attempt is still being served.
            retries[str(reply.status)] += 1
            time.sleep(0.05)
        raise AssertionError(f"create {n} never succeeded")

    with ThreadPoolExecutor(max_workers=CLIENTS) as pool:
        ids = list(pool.map(create, range(CREATES)))

    print(f"\n{CREATES} creates, {CLIENTS} clients, retries: {retries}")
    assert len(set(ids)) == CREATES  # every client saw its own pet's id
    assert Pet.objects.count() == CREATES  # and nothing was created twice
    assert set(Pet.objects.values_list("id", flat=True)) == set(ids)
