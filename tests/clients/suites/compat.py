"""What a partner's program does with the Python SDK, against a server of any later 1.x: run by
tests/clients/released.py from the SDK's own environment (it imports nothing of the service),
with the server's URL, a key, animals and what that server adds in PETSTORE_SDK_FIXTURES."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from petstore_client import ConflictError, NotFoundError, Petstore, ValidationError
from petstore_client.generated.api.animals import create_pet, list_pets
from petstore_client.generated.api.events import list_events
from petstore_client.generated.api.orders import cancel_order, get_order, list_orders, place_order
from petstore_client.generated.api.rate_limits import get_rate_limit
from petstore_client.generated.api.usage import get_usage
from petstore_client.generated.models import (
    EventType,
    NewOrder,
    NewPet,
    OrderStatus,
    Pet,
    PetStatus,
    UnknownEvent,
    WindowName,
)


@pytest.fixture(scope="session")
def fixtures() -> dict[str, Any]:
    with open(os.environ["PETSTORE_SDK_FIXTURES"]) as file:
        made = json.load(file)
    return {"baseUrl": made["baseUrl"], "added": made["added"], **made["python"]}


@pytest.fixture
def petstore(fixtures: dict[str, Any]) -> Petstore:
    return Petstore(fixtures["key"], server=fixtures["baseUrl"])


def test_animals_page_by_page_keep_the_fields_the_sdk_does_not_know(petstore, fixtures):
    pets = list(petstore.paginate(list_pets, category_id=[fixtures["categoryId"]], limit=2))

    assert len(pets) == fixtures["animals"]
    assert all(isinstance(pet, Pet) and isinstance(pet.status, PetStatus) for pet in pets)
    assert {tuple(pet.additional_keys) for pet in pets} == {tuple(fixtures["added"]["petFields"])}


def test_an_animal_added_comes_back_whole(petstore, fixtures):
    body = NewPet(name="Compat", category_id=fixtures["addTo"])

    pet = create_pet.sync(client=petstore.client, body=body)

    assert (pet.name, pet.status) == ("Compat", PetStatus.AVAILABLE)
    assert pet.additional_keys == fixtures["added"]["petFields"]
    # Kept on the way out as well: what the program stores of it loses nothing.
    assert set(fixtures["added"]["petFields"]) <= set(pet.to_dict())


def test_an_order_is_placed_read_listed_and_cancelled(petstore, fixtures):
    placed = place_order.sync(client=petstore.client, body=NewOrder(pet_id=fixtures["petIds"][0]))
    read = get_order.sync(placed.id, client=petstore.client)
    listed = list(petstore.paginate(list_orders))
    cancel_order.sync(placed.id, client=petstore.client)
    after = get_order.sync(placed.id, client=petstore.client)

    assert (placed.status, read.status) == (OrderStatus.PENDING, OrderStatus.PENDING)
    assert placed.id in [order.id for order in listed]
    assert after.status == OrderStatus.CANCELLED


def test_the_rate_limit_and_usage_name_every_window_known_or_not(petstore, fixtures):
    limit = get_rate_limit.sync(client=petstore.client)
    today = get_usage.sync(client=petstore.client, days=1)[-1]

    names = [str(window.name) for window in limit.windows]
    assert names == fixtures["added"]["windows"]
    # Known to this SDK: its enum's member; added after it: the value as a plain string.
    known = {member.value for member in WindowName}
    assert [isinstance(window.name, WindowName) for window in limit.windows] == [
        name in known for name in names
    ]
    assert all(type(window.name) is str for window in limit.windows if window.name not in known)
    assert today.admitted >= 1
    assert today.additional_keys == fixtures["added"]["usageFields"]


def test_every_event_parses_those_of_types_the_sdk_does_not_know_too(petstore, fixtures):
    events = list(petstore.paginate(list_events, limit=100))

    types = [str(event.type_) for event in events]
    assert set(fixtures["added"]["eventTypes"]) <= set(types)
    known = {member.value for member in EventType}
    # A listed type parses as its own class (an event stored before a field was added too).
    assert [isinstance(event, UnknownEvent) for event in events] == [
        kind not in known for kind in types
    ]
    unknown = [event for event in events if isinstance(event, UnknownEvent)]
    assert all(event.id.startswith("evt_") and isinstance(event.data, dict) for event in unknown)


def test_errors_raise_by_code_and_a_code_added_later_by_status(petstore, fixtures):
    order = NewOrder(pet_id=fixtures["petIds"][1])
    place_order.sync(client=petstore.client, body=order)

    with pytest.raises(ConflictError) as conflict:
        place_order.sync(client=petstore.client, body=order)
    with pytest.raises(NotFoundError) as not_found:
        get_order.sync(999_999_999, client=petstore.client)
    with pytest.raises(ValidationError) as invalid:
        create_pet.sync(
            client=petstore.client, body=NewPet(name="  ", category_id=fixtures["addTo"])
        )

    assert (conflict.value.status, conflict.value.code) == (409, fixtures["added"]["conflictCode"])
    assert (not_found.value.status, not_found.value.code) == (404, "not_found")
    assert list(invalid.value.field_errors) == ["name"]
