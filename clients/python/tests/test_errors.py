from __future__ import annotations

import pytest
from petstore_client import (
    ConflictError,
    ForbiddenError,
    NotFoundError,
    Petstore,
    UnauthorizedError,
    ValidationError,
)
from petstore_client.generated.api.animals import create_pet, list_pets
from petstore_client.generated.api.categories import get_category
from petstore_client.generated.api.orders import place_order
from petstore_client.generated.models import NewOrder, NewPet


@pytest.fixture
def petstore(fixtures):
    return Petstore(fixtures["keys"]["errors"], server=fixtures["baseUrl"])


def test_an_unknown_category_is_a_not_found_error(petstore):
    with pytest.raises(NotFoundError) as error:
        get_category.sync(client=petstore.client, category_id=999_999_999)

    assert (error.value.status, error.value.code) == (404, "not_found")


def test_ordering_an_animal_already_ordered_is_a_conflict_error(petstore, fixtures):
    order = NewOrder(pet_id=fixtures["petIds"][1])
    place_order.sync(client=petstore.client, body=order)

    with pytest.raises(ConflictError) as error:
        place_order.sync(client=petstore.client, body=order)

    assert (error.value.status, error.value.code) == (409, "conflict")


def test_an_invalid_animal_is_a_validation_error_with_its_field_errors(petstore, fixtures):
    with pytest.raises(ValidationError) as error:
        create_pet.sync(
            client=petstore.client, body=NewPet(name="  ", category_id=fixtures["categoryId"])
        )

    assert (error.value.status, error.value.code) == (400, "validation_error")
    assert list(error.value.field_errors) == ["name"]
    assert error.value.field_errors["name"]


def test_an_unknown_key_is_an_unauthorized_error(fixtures):
    stranger = Petstore("petstore_live_not-a-key", server=fixtures["baseUrl"])

    with pytest.raises(UnauthorizedError) as error:
        list_pets.sync(client=stranger.client)

    assert (error.value.status, error.value.code) == (401, "unauthorized")


def test_a_key_without_the_operations_scope_gets_a_forbidden_error(fixtures):
    reader = Petstore(fixtures["keys"]["readOnly"], server=fixtures["baseUrl"])

    with pytest.raises(ForbiddenError) as error:
        place_order.sync(client=reader.client, body=NewOrder(pet_id=fixtures["petIds"][1]))

    assert (error.value.status, error.value.code) == (403, "forbidden")
