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


def test_get_category_answers_one_category(client, auth, dog, cat):
    response = client.get(f"/v1/categories/{cat.pk}", headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert response.json() == {"id": cat.pk, "name": "Cat", "description": "Cats"}


def test_get_category_of_an_unknown_id_is_a_404_error_body(client, auth, dog):
    response = client.get(f"/v1/categories/{dog.pk + 1000}", headers=auth)

    assert_error(response, HTTPStatus.NOT_FOUND, "not_found")


def test_get_category_needs_the_pets_read_scope(client, make_key, dog):
    key = make_key(scopes=["orders:read"])

    response = client.get(f"/v1/categories/{dog.pk}", headers={"Authorization": f"Bearer {key}"})

    assert_error(response, HTTPStatus.FORBIDDEN, "forbidden")
