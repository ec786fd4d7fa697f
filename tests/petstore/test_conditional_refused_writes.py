"""A Redis that answers reads but refuses writes (petstore.conditional): the versions and the
tag last served are read, but nothing can be kept. The answer is then built and served as it
is, never a 500. The Redis is one of the tests' own, on a free loopback port, told to refuse
writes as a primary that has lost its replicas does (``min-replicas-to-write``)."""

from __future__ import annotations

from collections.abc import Iterator
from http import HTTPStatus

import pytest
import redis

from petstore.conditional import SEEN
from tests.network import free_port, redis_server
from tests.petstore.test_conditional import bearer, still_current


class OwnRedis:
    def __init__(self, port: int) -> None:
        self.url = f"redis://127.0.0.1:{port}/0"
        self.client = redis.Redis.from_url(self.url)

    def refuse_writes(self) -> None:
        # With no replica connected, it refuses every write: NOREPLICAS.
        self.client.config_set("min-replicas-to-write", 1)

    def accept_writes(self) -> None:
        self.client.config_set("min-replicas-to-write", 0)

    def tags_kept(self) -> list[bytes]:
        return list(self.client.scan_iter(f"*{SEEN}*"))


@pytest.fixture(scope="module")
def own_redis_server() -> Iterator[OwnRedis]:
    port = free_port()
    process = redis_server(port)
    try:
        yield OwnRedis(port)
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def own_redis(own_redis_server: OwnRedis, settings) -> Iterator[OwnRedis]:
    """The service's Redis for this test: empty, accepting writes until told otherwise."""
    own_redis_server.accept_writes()
    own_redis_server.client.flushdb()
    settings.REDIS_URL = own_redis_server.url
    yield own_redis_server
    own_redis_server.accept_writes()


def test_a_tag_that_cannot_be_kept_leaves_the_answer_to_be_served(
    client, api_key, make_pet, own_redis, clock
):
    make_pet("Rex")
    # Another page polled: the version of the animals is made, and no tag is kept for /v1/pets.
    client.get("/v1/pets?limit=5", headers=bearer(api_key, **{"If-None-Match": '"old"'}))
    own_redis.refuse_writes()

    answer = client.get("/v1/pets", headers=bearer(api_key, **{"If-None-Match": '"old"'}))

    assert answer.status_code == HTTPStatus.OK
    assert [pet["name"] for pet in answer.json()] == ["Rex"]
    # Its tag is still honoured, decided once the answer is made again.
    assert still_current(client, api_key, "/v1/pets", answer["ETag"])
    assert len(own_redis.tags_kept()) == 1  # the other page's alone


def test_a_version_that_cannot_be_made_leaves_the_answer_to_be_built(
    client, api_key, make_pet, own_redis, clock
):
    make_pet("Rex")
    etag = client.get("/v1/pets", headers=bearer(api_key))["ETag"]
    own_redis.refuse_writes()  # before any version of the animals exists

    current = client.get("/v1/pets", headers=bearer(api_key, **{"If-None-Match": etag}))
    old = client.get("/v1/pets", headers=bearer(api_key, **{"If-None-Match": '"old"'}))

    assert current.status_code == HTTPStatus.NOT_MODIFIED
    assert old.status_code == HTTPStatus.OK
    assert [pet["name"] for pet in old.json()] == ["Rex"]
    assert own_redis.tags_kept() == []
