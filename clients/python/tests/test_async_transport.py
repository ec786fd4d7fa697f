"""AsyncPetstore on the transport rules of Petstore (test_retries.py, test_cache.py), against the
running service."""

from __future__ import annotations

import asyncio
import time

from petstore_client import AsyncPetstore, Petstore, Retry
from petstore_client.generated.api.orders import list_orders


def test_an_async_post_whose_first_answer_is_lost_is_retried_and_places_one_order(
    fixtures, losing_first_answer
):
    key = fixtures["roomyKeys"]["async"]
    direct = Petstore(key, server=fixtures["baseUrl"])
    category = direct.categories.create(name="Lost answers")
    pet = direct.pets.create(name="Once", category_id=category.id)
    retries = []

    async def place():
        retry = Retry(on_retry=retries.append)
        async with AsyncPetstore(key, server=losing_first_answer.url, retry=retry) as petstore:
            return await petstore.orders.place(pet_id=pet.id)

    order = asyncio.run(place())

    assert order.pet_id == pet.id
    assert losing_first_answer.connections == 2
    assert [type(retry.error).__name__ for retry in retries] == ["RemoteProtocolError"]
    assert [o.pet_id for o in direct.paginate(list_orders)].count(pet.id) == 1


def test_the_async_etag_cache_answers_a_repeated_get_from_a_304(fixtures):
    async def twice():
        key = fixtures["roomyKeys"]["async"]
        async with AsyncPetstore(key, server=fixtures["baseUrl"], cache=True) as petstore:
            first = await petstore.categories.get(fixtures["categoryId"])
            second = await petstore.categories.get(fixtures["categoryId"])
            return first, second, petstore.cache

    first, second, cache = asyncio.run(twice())

    assert second.to_dict() == first.to_dict()
    assert cache.hits == 1


def test_an_async_call_past_the_minutes_limit_waits_out_retry_after(fixtures):
    key, base = fixtures["asyncFreeKey"], fixtures["baseUrl"]
    burner = Petstore(key, server=base, retry=Retry(max_retries=0))

    def spend():
        burner.categories.list()
        while burner.rate_limit.remaining > 0:
            burner.categories.list()

    spend()
    # Limits count per clock minute: the call below must find this one's still spent.
    if burner.rate_limit.reset - time.time() < 3:
        time.sleep(burner.rate_limit.reset - time.time() + 0.5)
        spend()
    retries = []

    async def patient():
        retry = Retry(on_retry=retries.append)
        async with AsyncPetstore(key, server=base, retry=retry) as petstore:
            return await petstore.categories.list(), petstore.rate_limit.remaining

    categories, remaining = asyncio.run(patient())

    assert categories
    assert [retry.status for retry in retries] == [429]
    assert 0 < retries[0].wait_seconds <= 60
    assert remaining == 59
