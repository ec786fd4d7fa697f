"""GET /v1/pets?categoryId=…&name=…: the animals of some categories, or by name, paged like
every listing, with a Link that keeps exactly the filters given."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from pets.models import Category, Pet
from tests.assertions import assert_validation_error
from tests.pets.test_list_pets import next_url

URL = "/v1/pets"


def names(response: Any) -> list[str]:
    assert response.status_code == HTTPStatus.OK, response.content
    return [pet["name"] for pet in response.json()]


@pytest.fixture
def rabbit(db: None) -> Category:
    return Category.objects.create(name="Rabbit")


@pytest.fixture
def shelter(make_pet, dog, cat, rabbit):
    make_pet("Rex", category=dog)
    make_pet("Luna", category=cat)
    make_pet("Rexy", category=cat, status="sold")
    make_pet("Thumper", category=rabbit)
    make_pet("Max", category=dog, status="pending")


def test_it_lists_one_categorys_animals(client, auth, shelter, cat):
    assert names(client.get(URL, {"categoryId": cat.pk}, headers=auth)) == ["Luna", "Rexy"]


def test_it_lists_the_animals_of_a_comma_list_of_categories(client, auth, shelter, cat, rabbit):
    response = client.get(URL, {"categoryId": f"{rabbit.pk},{cat.pk}"}, headers=auth)

    assert names(response) == ["Luna", "Rexy", "Thumper"]


def test_categories_sent_once_each_are_one_list_and_link_as_one(
    client, auth, make_pet, cat, rabbit
):
    for name in ("Luna", "Rexy", "Thumper"):
        make_pet(name, category=rabbit if name == "Thumper" else cat)
    # As generated clients send an array by default: the name once per item.
    response = client.get(f"{URL}?categoryId={rabbit.pk}&categoryId={cat.pk}&limit=2", headers=auth)

    assert names(response) == ["Luna", "Rexy"]
    url = next_url(response)
    assert url is not None
    assert parse_qs(urlsplit(url).query)["categoryId"] == [f"{rabbit.pk},{cat.pk}"]


def test_an_id_of_no_category_matches_nothing(client, auth, shelter):
    assert names(client.get(URL, {"categoryId": "999999"}, headers=auth)) == []


def test_it_fetches_one_animal_by_its_id(client, auth, make_pet):
    make_pet("Rex")
    luna = make_pet("Luna", status="sold")

    response = client.get(URL, {"id": luna.pk}, headers=auth)

    assert response.json() == [
        {
            "id": luna.pk,
            "name": "Luna",
            "categoryId": luna.category_id,
            "status": "sold",
            "breed": None,
        }
    ]


def test_it_fetches_a_page_of_animals_by_their_ids(client, auth, make_pet):
    rex, luna, max_ = (make_pet(name) for name in ("Rex", "Luna", "Max"))
    make_pet("Bella")
    ids = ",".join(str(pet.pk) for pet in (max_, rex, max_, luna))

    assert names(client.get(URL, {"id": ids}, headers=auth)) == ["Rex", "Luna", "Max"]
    assert names(client.get(f"{URL}?id={rex.pk}&id={luna.pk}", headers=auth)) == ["Rex", "Luna"]
    assert names(client.get(URL, {"id": "999999"}, headers=auth)) == []


def test_ids_combine_with_the_other_filters(client, auth, shelter, dog):
    every = ",".join(str(pk) for pk in Pet.objects.values_list("pk", flat=True))

    assert names(client.get(URL, {"id": every, "categoryId": dog.pk}, headers=auth)) == [
        "Rex",
        "Max",
    ]


def test_it_finds_animals_by_a_part_of_their_name_in_any_case(client, auth, shelter):
    assert names(client.get(URL, {"name": "rEX"}, headers=auth)) == ["Rex", "Rexy"]


def test_a_name_with_like_wildcards_matches_them_literally(client, auth, make_pet):
    make_pet("100% Good Boy")
    make_pet("1000 Good Boys")

    assert names(client.get(URL, {"name": "0%"}, headers=auth)) == ["100% Good Boy"]
    assert names(client.get(URL, {"name": "_"}, headers=auth)) == []


def test_filters_combine(client, auth, shelter, dog, cat):
    response = client.get(
        URL, {"categoryId": f"{dog.pk},{cat.pk}", "name": "re", "status": "available"}, headers=auth
    )

    assert names(response) == ["Rex"]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"categoryId": "dog"}, "categoryId"),
        ({"categoryId": ""}, "categoryId"),
        ({"categoryId": "1,"}, "categoryId"),
        ({"categoryId": "1.5"}, "categoryId"),
        ({"categoryId": "-1"}, "categoryId"),
        ({"categoryId": " 1"}, "categoryId"),
        ({"categoryId": "1,2,3,4,5,6,7,8,9,10,11"}, "categoryId"),
        ({"categoryId": "9223372036854775808"}, "categoryId"),
        ({"id": "rex"}, "id"),
        ({"id": ""}, "id"),
        ({"id": ",".join(str(n) for n in range(1, 102))}, "id"),
        ({"name": ""}, "name"),
        ({"name": "   "}, "name"),
        ({"name": "x" * 101}, "name"),
        ({"name": "a\x00b"}, "name"),
    ],
)
def test_a_bad_filter_is_a_400_naming_it(client, auth, shelter, params, field):
    response = client.get(URL, params, headers=auth)

    assert_validation_error(response, field)


def test_paging_a_filtered_listing_misses_and_repeats_nothing(client, auth, make_pet, dog, cat):
    for n in range(23):
        make_pet(f"Pup {n}", category=dog)
        make_pet(f"Kitten {n}", category=cat)
    seen: list[str] = []
    url: str | None = f"{URL}?categoryId={cat.pk}&name=ten&limit=3"
    pages = 0
    while url is not None:
        response = client.get(url, headers=auth)
        seen += names(response)
        url = next_url(response)
        pages += 1
        assert pages < 30

    assert seen == [f"Kitten {n}" for n in range(23)]
    assert len(seen) == len(set(seen))


def test_the_link_keeps_exactly_the_filters_given(client, auth, make_pet, dog):
    for n in range(4):
        make_pet(f"Rex {n}", category=dog)

    response = client.get(
        URL,
        # An unknown parameter is refused, never dropped (test_unknown_parameters).
        {"categoryId": str(dog.pk), "name": "rex", "limit": "2"},
        headers=auth,
    )

    url = next_url(response)
    assert url is not None
    query = parse_qs(urlsplit(url).query)
    assert set(query) == {"categoryId", "name", "limit", "cursor"}
    assert query["categoryId"] == [str(dog.pk)]
    assert query["name"] == ["rex"]
    assert query["limit"] == ["2"]
