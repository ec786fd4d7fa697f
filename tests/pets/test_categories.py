"""GET /v1/categories: listCategories."""

from __future__ import annotations

from http import HTTPStatus

from pets.models import Category
from tests.assertions import assert_error


def test_it_lists_every_category_in_id_order(client, auth, dog, cat):
    bird = Category.objects.create(name="Bird")

    response = client.get("/v1/categories", headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert response["Content-Type"] == "application/json"
    assert response.json() == [
        {"id": dog.pk, "name": "Dog", "description": "Dogs"},
        {"id": cat.pk, "name": "Cat", "description": "Cats"},
        {"id": bird.pk, "name": "Bird", "description": ""},
    ]


def test_it_lists_no_categories_as_an_empty_array(client, auth):
    response = client.get("/v1/categories", headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert response.json() == []


def test_it_needs_a_key_to_list_categories(client, dog):
    response = client.get("/v1/categories")

    assert_error(response, HTTPStatus.UNAUTHORIZED, "unauthorized")
    assert response["WWW-Authenticate"] == "Bearer"
