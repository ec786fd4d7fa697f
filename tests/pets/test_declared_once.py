"""An animal's fields and the listing's filters are declared once (the model, the serializers):
every column of the model is written by createPet's one statement, every field the API shows
is read back by each read path as stored, and every filter the listing declares narrows it,
through the page compiled once or through the ORM."""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events.models import Event
from pets import selectors
from pets.models import Pet
from pets.serializers import NewPetSerializer, PetListFilter, PetSerializer

URL = "/v1/pets"


def shown(pet: Pet) -> dict[str, Any]:
    """The animal as stored, in the API's shape, read field by field through the ORM."""
    return {
        str(name): getattr(pet, str(field.source)) for name, field in PetSerializer().fields.items()
    }


@pytest.fixture
def sent(cat) -> dict[str, Any]:
    """A value other than its default for every field createPet accepts."""
    body = {"name": "Biscuit", "categoryId": cat.pk, "status": "pending", "breed": "Beagle"}
    assert set(body) == set(NewPetSerializer().fields), (
        "a field createPet accepts has no value here"
    )
    return body


@pytest.mark.django_db
def test_every_column_of_the_model_is_written_by_the_one_statement(client, auth, sent):
    with CaptureQueriesContext(connection) as queries:
        response = client.post(URL, json.dumps(sent), content_type="application/json", headers=auth)

    assert response.status_code == HTTPStatus.CREATED, response.content
    (insert,) = [q["sql"] for q in queries.captured_queries if "INSERT" in q["sql"].upper()]
    written = insert.split("INSERT INTO", 2)[1].split("(", 1)[1].split(")", 1)[0]
    for field in Pet._meta.concrete_fields:
        if field is not Pet._meta.auto_field:
            assert connection.ops.quote_name(field.column) in written, field.name
    pet = Pet.objects.get()
    fields = NewPetSerializer().fields
    assert {name: getattr(pet, str(fields[name].source)) for name in sent} == sent
    assert pet.created_at is not None


@pytest.mark.django_db
def test_the_answer_the_event_and_every_read_show_the_row_as_stored(client, auth, sent):
    answer = client.post(URL, json.dumps(sent), content_type="application/json", headers=auth)
    pet = Pet.objects.get()

    assert answer.json() == shown(pet)
    assert Event.objects.get(type="pet.created").data == shown(pet)
    reads = [
        f"{URL}/{pet.pk}",  # compiled once
        URL,  # compiled once
        f"{URL}?status={sent['status']}",  # compiled once
        f"{URL}?name={sent['name']}",  # the ORM's
    ]
    for read in reads:
        body = client.get(read, headers=auth).json()
        assert (body if read.startswith(f"{URL}/") else body[0]) == shown(pet), read


@pytest.mark.django_db
def test_every_filter_the_listing_declares_narrows_it(client, auth, make_pet, dog, cat):
    for name, status, category in [
        ("Rex", "sold", dog),
        ("Ziggy", "available", cat),
        ("Zigzag", "available", dog),
        ("Tom", "sold", cat),
    ]:
        make_pet(name, status, category)
    Pet.objects.filter(name__in=["Ziggy", "Tom"]).update(breed="Siamese")
    # For each filter, a value and the animals it keeps.
    ids = dict(Pet.objects.values_list("name", "pk"))
    samples = {
        "id": (f"{ids['Tom']},{ids['Zigzag']}", ["Zigzag", "Tom"]),
        "status": ("sold", ["Rex", "Tom"]),
        "categoryId": (str(cat.pk), ["Ziggy", "Tom"]),
        "name": ("zig", ["Ziggy", "Zigzag"]),
        "breed": ("siamese", ["Ziggy", "Tom"]),
    }
    assert set(samples) == set(PetListFilter().fields), "a declared filter is not tried here"
    for name, (value, kept) in samples.items():
        response = client.get(URL, {name: value}, headers=auth)

        assert response.status_code == HTTPStatus.OK, response.content
        assert [pet["name"] for pet in response.json()] == kept, name


def test_the_pages_compiled_once_take_only_filters_the_listing_declares():
    declared = {str(field.source) for field in PetListFilter().fields.values()}
    for filters in selectors._COMPILED:
        assert filters <= declared, filters
