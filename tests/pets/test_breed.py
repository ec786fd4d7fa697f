"""An animal's optional ``breed`` (release 1.1.0): taken by createPet, shown in every answer and
Pet-bearing event, filtered by ``?breed=`` ignoring case and with the other filters and paging,
and in the admin; optional and marked in the document, as a field added in 1.x must be."""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from events.models import Event
from pets import services
from pets.models import Pet
from tests.admin_pages import listed
from tests.assertions import assert_validation_error
from tests.pets.test_list_pets import next_url

pytestmark = pytest.mark.django_db

URL = "/v1/pets"


def create(client, auth, body: dict[str, Any]) -> Any:
    return client.post(URL, json.dumps(body), content_type="application/json", headers=auth)


def names(response: Any) -> list[str]:
    assert response.status_code == HTTPStatus.OK, response.content
    return [pet["name"] for pet in response.json()]


def test_an_animal_is_added_with_its_breed_and_its_event_shows_it(client, auth, dog):
    response = create(client, auth, {"name": "Rex", "categoryId": dog.pk, "breed": "Beagle"})

    assert response.status_code == HTTPStatus.CREATED
    pet = Pet.objects.get()
    assert response.json() == {
        "id": pet.pk,
        "name": "Rex",
        "categoryId": dog.pk,
        "status": "available",
        "breed": "Beagle",
    }
    assert pet.breed == "Beagle"
    assert Event.objects.get(type="pet.created").data["breed"] == "Beagle"


@pytest.mark.parametrize("body", [{}, {"breed": None}])
def test_an_animal_without_a_breed_shows_null(client, auth, dog, body):
    response = create(client, auth, {"name": "Rex", "categoryId": dog.pk, **body})

    assert response.status_code == HTTPStatus.CREATED
    assert response.json()["breed"] is None
    assert Pet.objects.get().breed is None
    assert Event.objects.get(type="pet.created").data["breed"] is None


@pytest.mark.parametrize(
    ("breed", "message"),
    [
        ("B" * 101, "Ensure this field has no more than 100 characters."),
        ("", "This field may not be blank."),
        (7, "A JSON string is required."),
    ],
)
def test_a_bad_breed_is_refused_naming_it_and_adds_nothing(client, auth, dog, breed, message):
    response = create(client, auth, {"name": "Rex", "categoryId": dog.pk, "breed": breed})

    assert assert_validation_error(response, "breed") == {"breed": [message]}
    assert not Pet.objects.exists()
    assert not Event.objects.exists()


def test_a_breed_of_100_characters_is_kept_whole(client, auth, dog):
    response = create(client, auth, {"name": "Rex", "categoryId": dog.pk, "breed": "B" * 100})

    assert response.status_code == HTTPStatus.CREATED
    assert Pet.objects.get().breed == "B" * 100


@pytest.fixture
def kennel(dog, cat):
    for name, category, breed, status in [
        ("Rex", dog, "Beagle", "available"),
        ("Max", dog, "beagle", "pending"),
        ("Bella", dog, "Labrador", "available"),
        ("Snoopy", dog, "BEAGLE", "available"),
        ("Biscuit", dog, None, "available"),
        ("Luna", cat, "Beagle", "available"),  # a cat named for the filter's sake
    ]:
        services.pet_create(name=name, category_id=category.pk, breed=breed, status=status)


def test_the_breed_filter_ignores_case_and_matches_the_whole_breed(client, auth, kennel):
    assert names(client.get(URL, {"breed": "bEaGlE"}, headers=auth)) == [
        "Rex",
        "Max",
        "Snoopy",
        "Luna",
    ]
    assert names(client.get(URL, {"breed": "Beag"}, headers=auth)) == []


def test_the_breed_filter_combines_with_the_others_and_pages_keeping_it(client, auth, kennel, dog):
    query = {"breed": "beagle", "status": "available", "categoryId": dog.pk, "limit": 1}

    first = client.get(URL, query, headers=auth)

    assert names(first) == ["Rex"]
    url = next_url(first)
    assert url is not None
    assert parse_qs(urlsplit(url).query)["breed"] == ["beagle"]
    second = client.get(url, headers=auth)
    assert names(second) == ["Snoopy"]
    assert next_url(second) is None


def test_a_bad_breed_filter_is_refused(client, auth):
    errors = assert_validation_error(client.get(URL, {"breed": "B" * 101}, headers=auth), "breed")

    assert errors == {"breed": ["Ensure this field has no more than 100 characters."]}


def test_the_document_marks_breed_added_after_1_0_and_the_request_field_optional(client, db):
    schemas = json.loads(client.get("/v1/openapi.json").content)["components"]["schemas"]

    for name in ("Pet", "PetStatusChange"):
        breed = schemas[name]["properties"]["breed"]
        assert breed["nullable"] is True
        assert breed["x-added-after"] == "1.0.0"
        assert "x-added-after" not in schemas[name]["properties"]["name"]
    assert schemas["NewPet"]["properties"]["breed"]["maxLength"] == 100
    assert "breed" not in schemas["NewPet"]["required"]


def test_staff_add_an_animal_with_its_breed_see_it_listed_and_search_by_it(staff_client, dog):
    added = staff_client.post(
        "/admin/pets/pet/add/",
        {"name": "Biscuit", "category": dog.pk, "breed": "Beagle", "status": "available"},
    )
    unknown = staff_client.post(
        "/admin/pets/pet/add/", {"name": "Tom", "category": dog.pk, "status": "available"}
    )

    assert (added.status_code, unknown.status_code) == (HTTPStatus.FOUND, HTTPStatus.FOUND)
    biscuit, tom = Pet.objects.order_by("id")
    assert (biscuit.breed, tom.breed) == ("Beagle", None)  # an empty form field is no breed
    assert Event.objects.get(data__id=biscuit.pk).data["breed"] == "Beagle"
    assert "column-breed" in staff_client.get("/admin/pets/pet/").content.decode()
    assert listed(staff_client.get("/admin/pets/pet/", {"q": "beagle"})) == [biscuit]
