from __future__ import annotations

import time

from petstore_client import Petstore
from petstore_client.generated.api.animals import list_pets
from petstore_client.generated.api.categories import list_categories
from petstore_client.generated.models import ListPetsStatus


def test_paginate_over_a_filtered_list_yields_the_animals_of_one_large_page_none_twice(fixtures):
    petstore = Petstore(fixtures["keys"]["paging"], server=fixtures["baseUrl"])
    query = {"category_id": [fixtures["categoryId"]], "status": ListPetsStatus.AVAILABLE}
    one_page = list_pets.sync(client=petstore.client, limit=100, **query)
    pages = []

    def counted(**params):
        pages.append(params["cursor"])
        return list_pets.sync_detailed(**params)

    paged = list(petstore.paginate(_Listing(counted), limit=7, **query))

    assert len(one_page) == fixtures["availableInCategory"]
    assert [pet.to_dict() for pet in paged] == [pet.to_dict() for pet in one_page]
    assert len({pet.id for pet in paged}) == len(paged)
    assert len(pages) == -(-fixtures["availableInCategory"] // 7)


def test_the_limits_headers_come_back_as_numbers(fixtures):
    petstore = Petstore(fixtures["keys"]["headers"], server=fixtures["baseUrl"])

    list_categories.sync(client=petstore.client)

    limit = petstore.rate_limit
    assert (limit.limit, limit.remaining) == (60, 59)
    assert isinstance(limit.reset, int)
    assert time.time() < limit.reset <= time.time() + 61


class _Listing:
    """A listing operation that counts its calls."""

    def __init__(self, sync_detailed):
        self.sync_detailed = sync_detailed
