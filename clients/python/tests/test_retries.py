from __future__ import annotations

import time

import pytest
from petstore_client import Petstore, RateLimitError, Retry
from petstore_client.generated.api.categories import list_categories
from petstore_client.generated.api.orders import list_orders, place_order
from petstore_client.generated.models import NewOrder


def test_a_free_key_past_60_a_minute_waits_out_retry_after_and_past_the_budget_says_when(
    fixtures,
):
    key, base = fixtures["keys"]["free"], fixtures["baseUrl"]
    burner = Petstore(key, server=base, retry=Retry(max_retries=0))

    def spend():
        list_categories.sync(client=burner.client)
        while burner.rate_limit.remaining > 0:
            list_categories.sync(client=burner.client)

    spend()
    # Limits count per clock minute: the calls below need a few seconds of it left.
    if (left := burner.rate_limit.reset - time.time()) < 3:
        time.sleep(left + 0.5)
        spend()
    hurried = Petstore(key, server=base, retry=Retry(budget_seconds=2))
    with pytest.raises(RateLimitError) as refused:
        list_categories.sync(client=hurried.client)
    retries = []
    patient = Petstore(key, server=base, retry=Retry(on_retry=retries.append))

    answered = list_categories.sync_detailed(client=patient.client)

    assert (refused.value.status, refused.value.code) == (429, "rate_limited")
    assert refused.value.retry_after > 2
    assert answered.status_code == 200
    assert isinstance(answered.parsed, list)
    assert [retry.status for retry in retries] == [429]
    assert 0 < retries[0].wait_seconds <= 60


def test_a_post_whose_first_answer_is_lost_is_retried_and_places_one_order(
    fixtures, losing_first_answer
):
    pet_id = fixtures["petIds"][0]
    retries = []
    petstore = Petstore(
        fixtures["keys"]["orders"],
        server=losing_first_answer.url,
        retry=Retry(on_retry=retries.append),
    )

    answered = place_order.sync_detailed(client=petstore.client, body=NewOrder(pet_id=pet_id))

    direct = Petstore(fixtures["keys"]["orders"], server=fixtures["baseUrl"])
    orders = list_orders.sync(client=direct.client)
    assert answered.parsed.pet_id == pet_id
    assert answered.headers["Idempotent-Replayed"] == "true"
    assert losing_first_answer.connections == 2
    assert [type(retry.error).__name__ for retry in retries] == ["RemoteProtocolError"]
    assert [order.pet_id for order in orders] == [pet_id]
