"""Two dispatch passes at once (webhooks.services.lease_due): a pass leaves an endpoint whose
row another pass holds, instead of counting its places from what that pass has not committed.
Transactional: the other pass is another connection, in a thread of its own."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction
from django.utils import timezone

from events.models import Event
from webhooks import services
from webhooks.models import Delivery, Endpoint

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def test_a_pass_leaves_an_endpoint_another_pass_holds(make_account):
    endpoint = Endpoint.objects.create(
        account=make_account(), url="https://hooks.example.com/", events=["pet.created"]
    )
    owed = Delivery.objects.create(
        endpoint=endpoint,
        event=Event.objects.create(type="pet.created", data={}, fanned_out=True),
        next_attempt_at=timezone.now(),
    )
    held, done = threading.Event(), threading.Event()

    def other_pass() -> None:
        try:
            with transaction.atomic():
                Endpoint.objects.select_for_update().get(pk=endpoint.pk)
                held.set()
                done.wait(30)
        finally:
            connection.close()

    thread = threading.Thread(target=other_pass)
    thread.start()
    try:
        assert held.wait(30)
        assert services.lease_due() == []
    finally:
        done.set()
        thread.join()

    assert services.lease_due() == [[owed.pk]]
