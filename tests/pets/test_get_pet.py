"""GET /v1/pets/{petId}: getPet, deprecated, and gone after its sunset."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from http import HTTPStatus

import pytest
from django.conf import settings as django_settings

from petstore import settings as petstore_settings
from tests.assertions import assert_error


def test_it_returns_the_pet(client, auth, make_pet):
    pet = make_pet("Rex", status="pending")

    response = client.get(f"/v1/pets/{pet.pk}", headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "id": pet.pk,
        "name": "Rex",
        "categoryId": pet.category_id,
        "status": "pending",
        "breed": None,
    }


def test_it_announces_its_deprecation_and_sunset(client, auth, make_pet, settings, clock):
    settings.PETSTORE_GETPET_SUNSET_AT = petstore_settings.PETSTORE_GETPET_SUNSET_AT
    pet = make_pet()

    response = client.get(f"/v1/pets/{pet.pk}", headers=auth)

    deprecated_at = django_settings.PETSTORE_GETPET_DEPRECATED_AT
    assert response["Deprecation"] == f"@{int(deprecated_at.timestamp())}"
    assert response["Deprecation"] == "@1767225600"  # 2026-01-01T00:00:00Z
    assert response["Sunset"] == "Thu, 05 Dec 2030 00:00:00 GMT"
    assert response["Link"] == '</v1/pets>; rel="successor-version"'


@pytest.mark.parametrize("pet_id", ["MISSING", "0", "9223372036854775808", "abc", "-1", "1.0"])
def test_it_answers_404_for_an_id_that_names_no_pet(client, auth, make_pet, pet_id):
    pet = make_pet()
    if pet_id == "MISSING":
        pet_id = str(pet.pk + 1)

    response = client.get(f"/v1/pets/{pet_id}", headers=auth)

    assert_error(response, HTTPStatus.NOT_FOUND, "not_found")


def test_it_answers_404_for_the_largest_int64_id(client, auth, make_pet):
    make_pet()

    response = client.get(f"/v1/pets/{2**63 - 1}", headers=auth)

    assert_error(response, HTTPStatus.NOT_FOUND, "not_found")


def test_it_is_gone_after_its_sunset(client, auth, make_pet, settings):
    pet = make_pet()
    settings.PETSTORE_GETPET_SUNSET_AT = datetime.now(UTC) - timedelta(seconds=1)

    response = client.get(f"/v1/pets/{pet.pk}", headers=auth)

    assert_error(response, HTTPStatus.GONE, "gone")
    assert response["Link"] == '</v1/pets>; rel="successor-version"'


def test_it_is_gone_after_its_sunset_even_for_a_missing_pet(client, auth, settings):
    settings.PETSTORE_GETPET_SUNSET_AT = datetime(2020, 1, 1, tzinfo=UTC)

    response = client.get("/v1/pets/1", headers=auth)

    assert_error(response, HTTPStatus.GONE, "gone")


def test_it_still_answers_just_before_its_sunset(client, auth, make_pet, settings):
    pet = make_pet()
    settings.PETSTORE_GETPET_SUNSET_AT = datetime.now(UTC) + timedelta(minutes=1)

    response = client.get(f"/v1/pets/{pet.pk}", headers=auth)

    assert response.status_code == HTTPStatus.OK


def test_it_needs_a_key_to_get_a_pet(client, make_pet):
    pet = make_pet()

    response = client.get(f"/v1/pets/{pet.pk}")

    assert_error(response, HTTPStatus.UNAUTHORIZED, "unauthorized")
    assert response["WWW-Authenticate"] == "Bearer"
