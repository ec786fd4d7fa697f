from __future__ import annotations

import asyncio

import httpx
import pytest
from petstore_client import AsyncPetstore, NotFoundError, Petstore
from petstore_client.generated.api.animals import list_pets
from petstore_client.generated.models import Pet
from typed_program import every_async_method, every_method

# An endpoint nothing answers at: its deliveries fail, which the program does not mind.
HOOK_URL = "http://127.0.0.1:9/petstore-sdk-typed-program"


def test_every_method_answers_its_model(fixtures):
    petstore = Petstore(fixtures["roomyKeys"]["resources"], server=fixtures["baseUrl"])

    seen = every_method(petstore, HOOK_URL)

    assert seen[0] == "not found: not_found"
    assert seen[1] == "pets: 2, named: 1"
    assert seen[2] == "order: cancelled"
    assert seen[3].startswith("events: 3 pet.created, 0 unknown, then ")
    assert seen[4].endswith(" requeued")
    assert seen[5].startswith("limits: [")


def test_every_async_method_answers_its_model(fixtures):
    async def run():
        key = fixtures["roomyKeys"]["async"]
        async with AsyncPetstore(key, server=fixtures["baseUrl"]) as petstore:
            return await every_async_method(petstore, HOOK_URL)

    seen = asyncio.run(run())

    assert seen[:3] == ["pets: 2", "order: cancelled", "event: pet.created"]
    assert seen[3] == "followed: pet.created"
    assert seen[-1].startswith("limits: ")


def test_pets_list_walks_every_page_lazily_and_takes_plain_strings(fixtures):
    asked = []
    petstore = Petstore(
        fixtures["keys"]["paging"], server=fixtures["baseUrl"], transport=_Counting(asked)
    )
    query = {"status": "available", "category_id": fixtures["categoryId"], "limit": 10}

    walk = petstore.pets.list(**query)
    assert asked == []
    first = next(walk)
    assert len(asked) == 1
    pets = [first, *walk]

    assert len(pets) == fixtures["availableInCategory"]
    assert all(isinstance(pet, Pet) and pet.status == "available" for pet in pets)
    assert len(asked) == -(-fixtures["availableInCategory"] // 10)


def test_paginate_of_the_generated_listing_takes_a_plain_string_status(fixtures):
    petstore = Petstore(fixtures["keys"]["paging"], server=fixtures["baseUrl"])

    pets = list(petstore.paginate(list_pets, status="sold", category_id=[fixtures["categoryId"]]))

    assert [str(pet.status) for pet in pets] == ["sold"] * 5


def test_an_animal_that_is_not_there_is_the_services_not_found_error(fixtures):
    petstore = Petstore(fixtures["keys"]["errors"], server=fixtures["baseUrl"])

    with pytest.raises(NotFoundError) as error:
        petstore.pets.get(999_999_999)

    assert (error.value.status, error.value.code) == (404, "not_found")
    assert set(error.value.body) == {"code", "message", "status"}


class _Counting(httpx.HTTPTransport):
    """The ordinary transport, noting each request's cursor."""

    def __init__(self, asked: list[str | None]) -> None:
        super().__init__()
        self.asked = asked

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.asked.append(request.url.params.get("cursor"))
        return super().handle_request(request)
