"""POST /v1/categories: createCategory of the public template, under its own scope."""

from __future__ import annotations

import json
from http import HTTPStatus

import pytest

from pets.models import Category
from tests.assertions import assert_error, assert_validation_error

URL = "/v1/categories"


@pytest.fixture
def curator(make_key) -> dict[str, str]:
    key = make_key(scopes=["pets:read", "pets:write", "categories:write"])
    return {"Authorization": f"Bearer {key}"}


def post(client, body, headers):
    return client.post(URL, data=json.dumps(body), content_type="application/json", headers=headers)


def test_a_category_is_created_listed_and_usable_for_a_new_pet(client, curator):
    response = post(client, {"name": "Ferret", "description": "Small and curious"}, curator)

    assert response.status_code == HTTPStatus.CREATED
    created = response.json()
    assert created == {"id": created["id"], "name": "Ferret", "description": "Small and curious"}
    assert response["Location"] == f"/v1/categories/{created['id']}"
    assert client.get(response["Location"], headers=curator).json() == created
    listed = client.get(URL, headers=curator).json()
    assert created in listed
    pet = client.post(
        "/v1/pets",
        data=json.dumps({"name": "Slinky", "categoryId": created["id"]}),
        content_type="application/json",
        headers=curator,
    )
    assert pet.status_code == HTTPStatus.CREATED
    assert pet.json()["categoryId"] == created["id"]


def test_the_description_may_be_left_out(client, curator):
    response = post(client, {"name": "Parrot"}, curator)

    assert response.status_code == HTTPStatus.CREATED
    assert response.json()["description"] == ""


def test_a_name_taken_in_any_case_is_a_409_and_nothing_is_added(client, curator, dog):
    response = post(client, {"name": "  dOG "}, curator)

    assert_error(response, 409, "conflict")
    assert Category.objects.count() == 1


def test_a_key_without_the_scope_gets_403_and_nothing_is_added(client, auth):
    response = post(client, {"name": "Ferret"}, auth)

    body = assert_error(response, 403, "forbidden")
    assert "categories:write" in body["message"]
    assert not Category.objects.exists()


def test_new_secret_keys_do_not_get_the_scope(client, auth):
    response = client.get("/v1/rate_limit", headers=auth)
    assert response.status_code == HTTPStatus.OK
    assert post(client, {"name": "Ferret"}, auth).status_code == HTTPStatus.FORBIDDEN


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({}, ["name"]),
        ({"name": ""}, ["name"]),
        ({"name": "   "}, ["name"]),
        ({"name": 5}, ["name"]),
        ({"name": "x" * 256}, ["name"]),
        ({"name": "Ferret", "description": 7}, ["description"]),
        ({"name": "Ferret", "id": 3}, ["id"]),
        ({"name": "Ferret", "colour": "brown"}, ["colour"]),
    ],
)
def test_a_bad_body_is_a_400_naming_the_field_and_nothing_is_added(client, curator, body, fields):
    response = post(client, body, curator)

    assert_validation_error(response, *fields)
    assert not Category.objects.exists()
