"""GET /v1/pets: listPets, a bare array paged by a signed keyset cursor in the Link header."""

from __future__ import annotations

import re
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from pets.models import Pet
from petstore import pagination
from tests.assertions import assert_validation_error

URL = "/v1/pets"
NEXT_LINK = re.compile(r'^<(?P<url>[^>]+)>; rel="next"$')


def next_url(response: Any) -> str | None:
    link = response.headers.get("Link")
    if link is None:
        return None
    match = NEXT_LINK.match(link)
    assert match, link
    return match["url"]


def test_it_lists_pets_as_a_bare_array_in_id_order(client, auth, make_pet, cat):
    rex = make_pet("Rex")
    luna = make_pet("Luna", status="sold", category=cat)
    bella = make_pet("Bella", status="pending")

    response = client.get(URL, headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert response["Content-Type"] == "application/json"
    assert response.json() == [
        {
            "id": rex.pk,
            "name": "Rex",
            "categoryId": rex.category_id,
            "status": "available",
            "breed": None,
        },
        {"id": luna.pk, "name": "Luna", "categoryId": cat.pk, "status": "sold", "breed": None},
        {
            "id": bella.pk,
            "name": "Bella",
            "categoryId": bella.category_id,
            "status": "pending",
            "breed": None,
        },
    ]
    assert "Link" not in response


def test_it_lists_nothing_as_an_empty_array(client, auth):
    response = client.get(URL, headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert response.json() == []
    assert "Link" not in response


def test_it_returns_20_pets_by_default(client, auth, dog):
    Pet.objects.bulk_create(Pet(name=f"Pet {i}", category=dog) for i in range(21))

    response = client.get(URL, headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert len(response.json()) == 20
    assert next_url(response) is not None


def test_it_returns_at_most_100_pets(client, auth, dog):
    Pet.objects.bulk_create(Pet(name=f"Pet {i}", category=dog) for i in range(101))

    response = client.get(URL, {"limit": "100"}, headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert len(response.json()) == 100
    assert next_url(response) is not None


def test_it_has_no_next_link_when_the_page_holds_the_last_pet(client, auth, dog):
    Pet.objects.bulk_create(Pet(name=f"Pet {i}", category=dog) for i in range(3))

    response = client.get(URL, {"limit": "3"}, headers=auth)

    assert len(response.json()) == 3
    assert "Link" not in response


@pytest.mark.parametrize("limit", ["0", "101", "-1", "abc", "1.5", "", " 5", "5 ", "1e2", "0x10"])
def test_it_refuses_a_bad_limit(client, auth, limit):
    response = client.get(URL, {"limit": limit}, headers=auth)

    assert_validation_error(response, "limit")


@pytest.mark.parametrize("status", ["adopted", "Available", "", "available,sold"])
def test_it_refuses_an_unknown_status(client, auth, status):
    response = client.get(URL, {"status": status}, headers=auth)

    assert_validation_error(response, "status")


@pytest.mark.parametrize("status", ["available", "pending", "sold"])
def test_it_filters_by_status(client, auth, make_pet, status):
    pets = {name: make_pet(name, status=name) for name in ("available", "pending", "sold")}

    response = client.get(URL, {"status": status}, headers=auth)

    assert response.status_code == HTTPStatus.OK
    assert [pet["id"] for pet in response.json()] == [pets[status].pk]


def test_it_refuses_a_made_up_cursor(client, auth, make_pet):
    make_pet()

    response = client.get(URL, {"cursor": "MTIz"}, headers=auth)

    assert_validation_error(response, "cursor")


def test_it_refuses_a_tampered_cursor(client, auth, dog):
    Pet.objects.bulk_create(Pet(name=f"Pet {i}", category=dog) for i in range(3))
    url = next_url(client.get(URL, {"limit": "1"}, headers=auth))
    assert url is not None
    cursor = parse_qs(urlsplit(url).query)["cursor"][0]
    # The cursor is "<payload>:<signature>": edit the payload, then the signature.
    payload, _, signature = cursor.partition(":")
    edited = [
        payload[:-1] + ("A" if payload[-1] != "A" else "B") + ":" + signature,
        payload + ":" + signature[:-1] + ("A" if signature[-1] != "A" else "B"),
    ]

    for bad in edited:
        response = client.get(URL, {"limit": "1", "cursor": bad}, headers=auth)
        assert_validation_error(response, "cursor")


def test_it_refuses_a_signed_cursor_that_is_not_a_position(client, auth):
    # Signed with the right key for this path, but not a positive int64: not one we issue.
    for payload in ("0", "-1", "5x", "", " 5", "٣", str(2**63)):
        cursor = f"{payload}:{pagination._mac(URL, payload)}"
        response = client.get(URL, {"cursor": cursor}, headers=auth)
        assert_validation_error(response, "cursor")


def test_its_cursor_costs_one_hmac_and_round_trips(client, auth, dog):
    Pet.objects.bulk_create(Pet(name=f"Pet {i}", category=dog) for i in range(3))
    url = next_url(client.get(URL, {"limit": "1"}, headers=auth))
    assert url is not None
    cursor = parse_qs(urlsplit(url).query)["cursor"][0]
    first_id = Pet.objects.order_by("pk").values_list("pk", flat=True)[0]

    assert cursor == pagination.encode_cursor(URL, first_id)
    assert pagination.decode_cursor(URL, cursor) == first_id


def test_it_pages_through_every_matching_pet_exactly_once(client, auth, dog, cat):
    statuses = ["sold", "available", "sold", "sold", "pending", "sold", "sold", "sold", "available"]
    pets = Pet.objects.bulk_create(
        Pet(name=f"Pet {i}", category=dog if i % 2 else cat, status=status)
        for i, status in enumerate(statuses)
    )
    expected = [pet.pk for pet in pets if pet.status == "sold"]

    seen: list[int] = []
    pages = []
    url: str | None = f"{URL}?limit=2&status=sold"
    while url is not None:
        response = client.get(url, headers=auth)
        assert response.status_code == HTTPStatus.OK
        page = response.json()
        assert all(pet["status"] == "sold" for pet in page)
        seen += [pet["id"] for pet in page]
        pages.append(len(page))
        url = next_url(response)
        if url is not None:
            query = parse_qs(urlsplit(url).query)
            assert urlsplit(url).path == URL
            assert query["limit"] == ["2"]
            assert query["status"] == ["sold"]
            assert len(query["cursor"]) == 1

    assert seen == expected
    assert pages == [2, 2, 2]


def test_its_pages_do_not_shift_when_pets_join_or_leave_the_listing(client, auth, make_pet):
    first = make_pet("First")
    make_pet("Second")
    url = next_url(client.get(URL, {"limit": "1", "status": "available"}, headers=auth))
    assert url is not None
    Pet.objects.filter(pk=first.pk).update(status="sold")
    third = make_pet("Third")

    response = client.get(url, headers=auth)

    assert [pet["name"] for pet in response.json()] == ["Second"]
    url = next_url(response)
    assert url is not None
    last = client.get(url, headers=auth)
    assert [pet["id"] for pet in last.json()] == [third.pk]
    assert "Link" not in last


@pytest.mark.urls("tests.pets.alias_urls")
def test_it_refuses_a_cursor_issued_for_another_path(client, auth, dog):
    Pet.objects.bulk_create(Pet(name=f"Pet {i}", category=dog) for i in range(3))
    url = next_url(client.get(URL, {"limit": "1"}, headers=auth))
    assert url is not None
    cursor = parse_qs(urlsplit(url).query)["cursor"][0]

    same_path = client.get(URL, {"limit": "1", "cursor": cursor}, headers=auth)
    other_path = client.get("/v1/other-pets", {"limit": "1", "cursor": cursor}, headers=auth)

    assert same_path.status_code == HTTPStatus.OK
    assert_validation_error(other_path, "cursor")


def test_it_needs_a_key_to_list_pets(client, make_pet):
    make_pet()

    response = client.get(URL)

    assert response.status_code == HTTPStatus.UNAUTHORIZED
    assert response["WWW-Authenticate"] == "Bearer"
