"""POST /v1/pets: createPet, and the strict body rules every write follows."""

from __future__ import annotations

import json
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from django.test import Client

from pets.models import Category, Pet
from tests.assertions import assert_error, assert_validation_error

URL = "/v1/pets"


def post_json(client: Client, auth: dict[str, str], body: Any) -> Any:
    return client.post(URL, data=json.dumps(body), content_type="application/json", headers=auth)


def post_raw(
    client: Client, auth: dict[str, str], data: bytes | str, content_type: str = "application/json"
) -> Any:
    return client.post(URL, data=data, content_type=content_type, headers=auth)


def test_it_creates_a_pet_and_says_where_it_is(client, auth, dog):
    response = post_json(client, auth, {"name": "Rex", "categoryId": dog.pk, "status": "pending"})

    assert response.status_code == HTTPStatus.CREATED
    pet = Pet.objects.get()
    assert response.json() == {
        "id": pet.pk,
        "name": "Rex",
        "categoryId": dog.pk,
        "status": "pending",
        "breed": None,
    }
    assert response["Location"] == f"/v1/pets/{pet.pk}"
    assert response["Content-Type"] == "application/json"
    assert (pet.name, pet.category_id, pet.status) == ("Rex", dog.pk, "pending")


def test_it_makes_a_new_pet_available_when_no_status_is_given(client, auth, dog):
    response = post_json(client, auth, {"name": "Rex", "categoryId": dog.pk})

    assert response.status_code == HTTPStatus.CREATED
    assert response.json()["status"] == "available"
    assert Pet.objects.get().status == "available"


def test_it_trims_the_name_and_keeps_unicode(client, auth, dog):
    response = post_json(client, auth, {"name": "  Zoë 🐕 ミケ \t", "categoryId": dog.pk})

    assert response.status_code == HTTPStatus.CREATED
    assert response.json()["name"] == "Zoë 🐕 ミケ"
    assert Pet.objects.get().name == "Zoë 🐕 ミケ"


def test_it_accepts_a_name_of_255_characters(client, auth, dog):
    response = post_json(client, auth, {"name": "x" * 255, "categoryId": dog.pk})

    assert response.status_code == HTTPStatus.CREATED
    assert Pet.objects.get().name == "x" * 255


# Each body is built from the id of an existing category, so that only the named field is wrong.
BAD_BODIES: dict[str, tuple[Callable[[int], dict[str, Any]], str]] = {
    "missing name": (lambda dog: {"categoryId": dog}, "name"),
    "missing categoryId": (lambda dog: {"name": "Rex"}, "categoryId"),
    "name that is a number": (lambda dog: {"name": 5, "categoryId": dog}, "name"),
    "name that is null": (lambda dog: {"name": None, "categoryId": dog}, "name"),
    "name that is a list": (lambda dog: {"name": ["Rex"], "categoryId": dog}, "name"),
    "categoryId that is a string": (
        lambda dog: {"name": "Rex", "categoryId": str(dog)},
        "categoryId",
    ),
    "categoryId that is true": (lambda dog: {"name": "Rex", "categoryId": True}, "categoryId"),
    "categoryId that is a float": (lambda dog: {"name": "Rex", "categoryId": 1.5}, "categoryId"),
    "categoryId that is a whole float": (
        lambda dog: {"name": "Rex", "categoryId": float(dog)},
        "categoryId",
    ),
    "categoryId beyond int64": (lambda dog: {"name": "Rex", "categoryId": 2**63}, "categoryId"),
    "categoryId that is zero": (lambda dog: {"name": "Rex", "categoryId": 0}, "categoryId"),
    "categoryId that is negative": (lambda dog: {"name": "Rex", "categoryId": -dog}, "categoryId"),
    "categoryId of no category": (
        lambda dog: {"name": "Rex", "categoryId": dog + 1000},
        "categoryId",
    ),
    "unknown field": (lambda dog: {"name": "Rex", "categoryId": dog, "colour": "brown"}, "colour"),
    "read-only id": (lambda dog: {"id": 7, "name": "Rex", "categoryId": dog}, "id"),
    "name of 256 characters": (lambda dog: {"name": "x" * 256, "categoryId": dog}, "name"),
    "blank name": (lambda dog: {"name": "   ", "categoryId": dog}, "name"),
    "empty name": (lambda dog: {"name": "", "categoryId": dog}, "name"),
    "unknown status": (
        lambda dog: {"name": "Rex", "categoryId": dog, "status": "adopted"},
        "status",
    ),
    "status in another case": (
        lambda dog: {"name": "Rex", "categoryId": dog, "status": "Sold"},
        "status",
    ),
    "status that is a number": (
        lambda dog: {"name": "Rex", "categoryId": dog, "status": 1},
        "status",
    ),
    "status that is null": (
        lambda dog: {"name": "Rex", "categoryId": dog, "status": None},
        "status",
    ),
}


@pytest.mark.parametrize(("make_body", "field"), BAD_BODIES.values(), ids=BAD_BODIES.keys())
def test_it_refuses_an_invalid_body_naming_the_field(client, auth, dog, make_body, field):
    response = post_json(client, auth, make_body(dog.pk))

    assert_validation_error(response, field)
    assert Pet.objects.count() == 0


def test_it_names_every_invalid_field_at_once(client, auth, dog):
    response = post_json(client, auth, {"name": 1, "categoryId": "1", "id": 3, "extra": True})

    assert_validation_error(response, "name", "categoryId", "id", "extra")
    assert Pet.objects.count() == 0


def test_it_names_an_unknown_category_among_other_mistakes(client, auth, dog):
    # A valid body's category is checked by the INSERT itself; this one never reaches it.
    response = post_json(client, auth, {"colour": "brown", "name": "", "categoryId": dog.pk + 1})

    errors = assert_validation_error(response, "name", "categoryId", "colour")
    assert list(errors) == ["name", "categoryId", "colour"]
    assert errors["categoryId"] == [f"There is no category {dog.pk + 1}."]
    assert response.json()["message"] == "Invalid fields: `name`, `categoryId`, `colour`."
    assert Pet.objects.count() == 0


def test_a_known_category_is_not_named_among_other_mistakes(client, auth, dog):
    response = post_json(client, auth, {"name": "", "categoryId": dog.pk})

    assert_validation_error(response, "name")
    assert Pet.objects.count() == 0


def test_it_refuses_a_name_with_a_lone_surrogate(client, auth, dog):
    # json.dumps escapes the surrogate as \ud800, which is valid JSON but not Unicode text: like
    # bytes that are not UTF-8, the body is malformed.
    response = post_json(client, auth, {"name": "Rex\ud800", "categoryId": dog.pk})

    assert_error(response, HTTPStatus.BAD_REQUEST, "malformed_request")
    assert Pet.objects.count() == 0


def test_it_names_the_unknown_category_in_the_message(client, auth, dog):
    response = post_json(client, auth, {"name": "Rex", "categoryId": dog.pk + 1})

    errors = assert_validation_error(response, "categoryId")
    assert str(dog.pk + 1) in errors["categoryId"][0]
    assert Category.objects.count() == 1


MALFORMED_BODIES = {
    "broken JSON": b'{"name": "Rex",',
    "trailing garbage": b'{"name": "Rex"} x',
    "NaN": b'{"name": "Rex", "categoryId": NaN}',
    "array": b'[{"name": "Rex", "categoryId": 1}]',
    "string": b'"Rex"',
    "number": b"1",
    "null": b"null",
    "empty body": b"",
    "white space only": b"  \n ",
    "not UTF-8": b'{"name": "Caf\xe9", "categoryId": 1}',
    "UTF-16": '{"name": "Rex", "categoryId": 1}'.encode("utf-16"),
}


@pytest.mark.parametrize("data", MALFORMED_BODIES.values(), ids=MALFORMED_BODIES.keys())
def test_it_refuses_a_body_that_is_not_a_json_object(client, auth, dog, data):
    response = post_raw(client, auth, data)

    assert_error(response, HTTPStatus.BAD_REQUEST, "malformed_request")
    assert Pet.objects.count() == 0


@pytest.mark.parametrize(
    ("content_type", "data"),
    [
        ("text/plain", '{"name": "Rex", "categoryId": 1}'),
        ("application/x-www-form-urlencoded", "name=Rex&categoryId=1"),
        ("multipart/form-data; boundary=BoUnDaRy", "--BoUnDaRy--\r\n"),
        ("application/xml", "<pet><name>Rex</name></pet>"),
    ],
)
def test_it_refuses_a_body_that_is_not_json(client, auth, dog, content_type, data):
    response = post_raw(client, auth, data, content_type=content_type)

    assert_error(response, HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type")
    assert Pet.objects.count() == 0


def test_it_accepts_json_with_a_charset(client, auth, dog):
    response = post_raw(
        client,
        auth,
        json.dumps({"name": "Rex", "categoryId": dog.pk}),
        content_type="application/json; charset=utf-8",
    )

    assert response.status_code == HTTPStatus.CREATED


def test_it_refuses_a_body_over_64_kib(client, auth, dog):
    body = json.dumps({"name": "Rex", "categoryId": dog.pk})
    data = body + " " * (64 * 1024 + 1 - len(body))

    response = post_raw(client, auth, data)

    assert_error(response, HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "payload_too_large")
    assert Pet.objects.count() == 0


def test_it_accepts_a_body_of_exactly_64_kib(client, auth, dog):
    body = json.dumps({"name": "Rex", "categoryId": dog.pk})
    data = body + " " * (64 * 1024 - len(body))

    response = post_raw(client, auth, data)

    assert response.status_code == HTTPStatus.CREATED


def test_it_needs_a_key_to_create_a_pet(client, dog):
    response = post_json(client, {}, {"name": "Rex", "categoryId": dog.pk})

    assert_error(response, HTTPStatus.UNAUTHORIZED, "unauthorized")
    assert response["WWW-Authenticate"] == "Bearer"
    assert Pet.objects.count() == 0
