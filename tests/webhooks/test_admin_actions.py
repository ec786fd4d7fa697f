"""An account manager sends an endpoint's failed deliveries again since a time, and sends it a
test event, from the admin's endpoint list: each asks for its form first, acts only on a valid
one, says what it did per endpoint, and is in the trail with the manager as actor. Redelivering
leaves what is being sent as it is, and says so."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape
from http import HTTPStatus
from typing import Any

import pytest
from django.contrib import messages
from django.utils import timezone

from audit.models import Entry
from events.models import Event
from tests.admin_pages import shown_messages
from tests.conftest import CLOCK_START
from tests.webhooks.test_deliveries import deliver_due, failed
from webhooks import deliveries, services
from webhooks.models import Delivery, DeliveryState, Endpoint

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

ENDPOINTS = "/admin/webhooks/endpoint/"
# What the form's datetime-local input sends: a time of day in the admin's zone (UTC).
TYPED = "%Y-%m-%dT%H:%M"


@pytest.fixture(autouse=True)
def _loopback_receivers(settings):
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True


@pytest.fixture
def make_endpoint(make_account):
    def make(url: str) -> Endpoint:
        return services.endpoint_create(
            account_id=make_account().pk, url=url, events=["pet.created"]
        )

    return make


def choose(desk, action: str, endpoints: list[Endpoint]):
    """Tick ``endpoints`` in the list, pick ``action`` and press Go: its form's page."""
    return desk.post(
        ENDPOINTS,
        {"action": action, "_selected_action": [e.pk for e in endpoints], "index": 0},
    )


def submit(desk, page, **fields: str):
    """Send the form on ``page`` with ``fields`` filled in, as the browser would: its hidden
    inputs (the selection, the action's name, the confirm marker) and the fields."""
    data: dict[str, Any] = {}
    for name, value in re.findall(
        r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page.content.decode()
    ):
        data.setdefault(name, []).append(unescape(value))
    return desk.post(ENDPOINTS, {**data, **fields}, follow=True)


def levelled(response) -> list[tuple[int, str]]:
    return [(message.level, str(message)) for message in response.context["messages"]]


def states(*rows: Delivery) -> list[str]:
    return [Delivery.objects.get(pk=row.pk).state for row in rows]


def test_the_endpoint_list_offers_both_actions(manager_client, make_endpoint):
    make_endpoint("https://hooks.example.com/a")

    page = manager_client.get(ENDPOINTS)

    assert page.status_code == HTTPStatus.OK
    offered = dict(page.context["action_form"].fields["action"].choices)
    assert offered["recover_since"] == "Send failed deliveries again since…"
    assert offered["send_test"] == "Send a test event…"


def test_recovery_first_asks_since_when_a_day_ago_by_default_and_queues_nothing(
    manager_client, make_endpoint, clock
):
    endpoint = make_endpoint("https://hooks.example.com/a")
    delivery = failed(endpoint.pk, ago=timedelta(hours=1))

    page = choose(manager_client, "recover_since", [endpoint])

    assert page.status_code == HTTPStatus.OK
    assert [row for row, _ in page.context["endpoints"]] == [endpoint]
    assert "https://hooks.example.com/a" in page.content.decode()
    day_ago = (CLOCK_START - timedelta(hours=24)).strftime(TYPED)
    assert f'value="{day_ago}"' in page.content.decode()
    assert page.context["form"].errors == {}
    assert states(delivery) == [DeliveryState.FAILED]
    assert not Entry.objects.filter(action="endpoint.recovered").exists()


def test_recovery_sends_again_only_what_failed_since_then_and_names_the_manager(
    manager_client, account_manager, make_endpoint, receiver, other_receiver
):
    endpoint = make_endpoint(receiver.url)
    idle = make_endpoint(other_receiver.url)
    before = failed(endpoint.pk, ago=timedelta(hours=3))
    after = failed(endpoint.pk, ago=timedelta(hours=1))
    since = timezone.now() - timedelta(hours=2)

    page = choose(manager_client, "recover_since", [endpoint, idle])
    done = submit(manager_client, page, since=since.strftime(TYPED))

    assert done.redirect_chain == [(ENDPOINTS, HTTPStatus.FOUND)]
    assert shown_messages(done) == [
        f"1 delivery(ies) queued again for {receiver.url}.",
        f"0 delivery(ies) queued again for {other_receiver.url}.",
    ]
    assert states(before, after) == [DeliveryState.FAILED, DeliveryState.PENDING]
    deliver_due()
    assert [event["id"] for event in receiver.verified(endpoint.secret)] == [after.event.uid]
    assert other_receiver.received == []
    entry = Entry.objects.get(action="endpoint.recovered", target_id=str(endpoint.pk))
    assert entry.actor == account_manager.username
    assert entry.changes["requeued"] == [None, 1]


def test_recovery_says_when_more_are_left(manager_client, make_endpoint):
    endpoint = make_endpoint("https://hooks.example.com/a")
    since = timezone.now() - timedelta(hours=3)
    made = since + timedelta(minutes=1)
    events = Event.objects.bulk_create(
        Event(type="pet.created", data={}, created_at=made)
        for _ in range(deliveries.MAX_RECOVERED + 1)
    )
    Delivery.objects.bulk_create(
        Delivery(endpoint=endpoint, event=event, state=DeliveryState.FAILED, created_at=made)
        for event in events
    )

    page = choose(manager_client, "recover_since", [endpoint])
    done = submit(manager_client, page, since=since.strftime(TYPED))

    assert levelled(done) == [
        (
            messages.WARNING,
            f"{deliveries.MAX_RECOVERED} delivery(ies) queued again for "
            "https://hooks.example.com/a; more are left: run it again.",
        )
    ]
    newest = Delivery.objects.filter(endpoint=endpoint).order_by("-pk").first()
    assert newest is not None
    assert states(newest) == [DeliveryState.FAILED]
    assert Delivery.objects.filter(state=DeliveryState.PENDING).count() == deliveries.MAX_RECOVERED


@pytest.mark.parametrize(
    ("moved", "error"),
    [
        (timedelta(hours=1), "It is in the future."),
        (-timedelta(days=31), "Deliveries are kept 30 days only."),
    ],
)
def test_a_since_the_api_refuses_shows_the_form_again_and_changes_nothing(
    manager_client, make_endpoint, moved, error
):
    endpoint = make_endpoint("https://hooks.example.com/a")
    delivery = failed(endpoint.pk, ago=timedelta(hours=1))

    page = choose(manager_client, "recover_since", [endpoint])
    again = submit(manager_client, page, since=(timezone.now() + moved).strftime(TYPED))

    assert again.status_code == HTTPStatus.OK
    assert again.redirect_chain == []
    assert again.context["form"].errors == {"since": [error]}
    assert error in again.content.decode()
    assert states(delivery) == [DeliveryState.FAILED]
    assert not Entry.objects.filter(action="endpoint.recovered").exists()


def test_a_test_event_of_the_chosen_type_arrives_signed_at_each_endpoint(
    manager_client, account_manager, make_endpoint, receiver, other_receiver
):
    first, second = make_endpoint(receiver.url), make_endpoint(other_receiver.url)

    page = choose(manager_client, "send_test", [first, second])
    assert page.status_code == HTTPStatus.OK
    assert not Delivery.objects.exists()
    done = submit(manager_client, page, type="order.cancelled")
    deliver_due()

    sent = {d.endpoint_id: d.event.uid for d in Delivery.objects.select_related("event")}
    assert sorted(sent) == [first.pk, second.pk]
    assert shown_messages(done) == [
        f"Test event {sent[first.pk]} (order.cancelled) queued for {receiver.url}.",
        f"Test event {sent[second.pk]} (order.cancelled) queued for {other_receiver.url}.",
    ]
    for endpoint, at in [(first, receiver), (second, other_receiver)]:
        (arrived,) = at.verified(endpoint.secret)
        assert arrived["id"] == sent[endpoint.pk]
        assert arrived["id"].startswith("evt_test_")
        assert arrived["type"] == "order.cancelled"
    entries = Entry.objects.filter(action="endpoint.tested").order_by("target_id")
    assert [(e.actor, e.target_id) for e in entries] == [
        (account_manager.username, str(first.pk)),
        (account_manager.username, str(second.pk)),
    ]


def test_an_unknown_type_shows_the_form_again_and_queues_nothing(manager_client, make_endpoint):
    endpoint = make_endpoint("https://hooks.example.com/a")

    page = choose(manager_client, "send_test", [endpoint])
    again = submit(manager_client, page, type="pet.adopted")

    assert again.status_code == HTTPStatus.OK
    assert list(again.context["form"].errors) == ["type"]
    assert "pet.adopted is not one of the available choices" in again.content.decode()
    assert not Delivery.objects.exists()
    assert not Entry.objects.filter(action="endpoint.tested").exists()


def test_the_eleventh_test_in_a_minute_is_a_warning_and_the_others_still_go(
    manager_client, make_endpoint, clock
):
    busy = make_endpoint("https://hooks.example.com/busy")
    calm = make_endpoint("https://hooks.example.com/calm")
    for _ in range(10):
        page = choose(manager_client, "send_test", [busy])
        submit(manager_client, page, type="pet.created")
        clock.advance(1)

    page = choose(manager_client, "send_test", [busy, calm])
    done = submit(manager_client, page, type="pet.created")

    (calm_uid,) = Delivery.objects.filter(endpoint=calm).values_list("event__uid", flat=True)
    # The first of the ten was sent 10 s ago: it leaves the minute in 50 s.
    assert levelled(done) == [
        (
            messages.WARNING,
            "https://hooks.example.com/busy: 10 test sends a minute at most; try again in 50 s.",
        ),
        (messages.INFO, f"Test event {calm_uid} (pet.created) queued for {calm.url}."),
    ]
    assert Delivery.objects.filter(endpoint=busy).count() == 10
    assert Entry.objects.filter(action="endpoint.tested", target_id=str(busy.pk)).count() == 10


def test_redelivering_leaves_what_is_being_sent_and_says_so(
    manager_client, account_manager, make_endpoint, receiver
):
    endpoint = make_endpoint(receiver.url)
    waiting, sending = (failed(endpoint.pk, ago=timedelta(hours=n)) for n in (2, 1))
    Delivery.objects.filter(pk=sending.pk).update(
        leased_until=timezone.now() + timedelta(minutes=1)
    )

    done = manager_client.post(
        "/admin/webhooks/delivery/",
        {"action": "redeliver", "_selected_action": [waiting.pk, sending.pk], "index": 0},
        follow=True,
    )

    assert levelled(done) == [
        (messages.INFO, "1 delivery(ies) sent again."),
        (
            messages.WARNING,
            "1 left as they were: being sent right now, or test sends past 10 a minute.",
        ),
    ]
    assert states(waiting, sending) == [DeliveryState.PENDING, DeliveryState.FAILED]
    entry = Entry.objects.get(action="delivery.retried")
    assert (entry.target_id, entry.actor) == (str(waiting.pk), account_manager.username)
