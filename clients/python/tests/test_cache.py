from __future__ import annotations

from petstore_client import Petstore
from petstore_client.generated.api.categories import get_category
from petstore_client.generated.api.rate_limits import get_rate_limit


def test_with_the_etag_cache_a_repeated_get_is_answered_from_it_after_a_304_the_day_unspent(
    fixtures,
):
    petstore = Petstore(fixtures["keys"]["cache"], server=fixtures["baseUrl"], cache=True)

    def windows():
        limits = get_rate_limit.sync(client=petstore.client)
        assert limits.ban is None
        return {str(window.name): window.remaining for window in limits.windows}

    first = get_category.sync(client=petstore.client, category_id=fixtures["categoryId"])
    before = windows()

    second = get_category.sync_detailed(client=petstore.client, category_id=fixtures["categoryId"])
    after = windows()

    assert second.status_code == 200
    assert second.parsed.to_dict() == first.to_dict()
    assert petstore.cache.hits == 1
    assert after["day"] == before["day"]
    assert after["minute"] == before["minute"] - 1
