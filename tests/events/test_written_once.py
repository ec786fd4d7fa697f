"""Each event type is written by one service, whichever way its change comes: an animal added
through the API, the admin or seed_demo has the same one pet.created, its data the animal as
the API shows it."""

from __future__ import annotations

import json
from http import HTTPStatus
from io import StringIO

import pytest
from django.core.management import call_command

from events.models import Event
from pets.models import Category, Pet


def pet_created_data() -> list[dict]:
    return [event.data for event in Event.objects.filter(type="pet.created").order_by("id")]


@pytest.mark.django_db
def test_an_animal_added_in_the_admin_has_the_apis_pet_created(staff_client, client, auth, dog):
    staff_client.post(
        "/admin/pets/pet/add/", {"name": "Biscuit", "category": dog.pk, "status": "available"}
    )
    pet = Pet.objects.get()
    shown = client.get("/v1/pets?name=Biscuit", headers=auth).json()

    assert pet_created_data() == shown
    assert shown[0]["id"] == pet.pk


@pytest.mark.django_db
def test_an_animal_added_through_the_api_has_one_pet_created(client, auth, dog):
    response = client.post(
        "/v1/pets",
        json.dumps({"name": "Rex", "categoryId": dog.pk}),
        content_type="application/json",
        headers=auth,
    )

    assert response.status_code == HTTPStatus.CREATED
    assert pet_created_data() == [response.json()]


@pytest.mark.django_db
def test_the_demo_data_has_its_events_once(client, auth):
    call_command("seed_demo", stdout=StringIO())
    call_command("seed_demo", stdout=StringIO())

    added = Event.objects.filter(type="category.created")
    assert sorted(event.data["name"] for event in added) == sorted(
        Category.objects.values_list("name", flat=True)
    )
    shown = client.get("/v1/pets?limit=100", headers=auth).json()
    assert pet_created_data() == shown
