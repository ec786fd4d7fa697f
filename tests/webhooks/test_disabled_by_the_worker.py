"""The worker disables an endpoint when an attempt says so (webhooks.services.record): a
``410``; a delivery whose schedule is spent while none of the endpoint's arrived since it was
made; a failed trial after days of nothing but failures, which fails what the endpoint is owed.
Each recorded as a worker records it, in the test's transaction, on the fixed clock."""

from __future__ import annotations

from datetime import timedelta

import pytest

from audit.models import Entry
from events.models import Event
from events.types import EventType
from tests.conftest import CLOCK_START
from webhooks import services
from webhooks.delivery import Attempt
from webhooks.models import Delivery, DeliveryState, Endpoint, EndpointState

pytestmark = pytest.mark.django_db

NOW = CLOCK_START
DAYS = 4  # not the default, so that the reason is seen to name the setting's days
DEAD_SINCE = NOW - timedelta(days=DAYS)
PENDING, DELIVERED, FAILED = DeliveryState.PENDING, DeliveryState.DELIVERED, DeliveryState.FAILED


@pytest.fixture(autouse=True)
def _policy(settings, clock) -> None:
    settings.PETSTORE_WEBHOOK_RETRY_SECONDS = [5, 300, 1800]
    settings.PETSTORE_WEBHOOK_PAUSE_AFTER = 5
    settings.PETSTORE_WEBHOOK_PAUSE_SECONDS = 30
    settings.PETSTORE_WEBHOOK_MAX_PAUSE_SECONDS = 1800
    settings.PETSTORE_WEBHOOK_DISABLE_AFTER_DAYS = DAYS


@pytest.fixture
def make_endpoint(make_account):
    def make(**fields) -> Endpoint:
        return Endpoint.objects.create(
            account=make_account(),
            url="https://hooks.example.com/in",
            events=["pet.created"],
            created_at=NOW - timedelta(days=30),
            **fields,
        )

    return make


def owe(endpoint: Endpoint, state: str = PENDING, **fields) -> Delivery:
    """A delivery to ``endpoint``: due now while pending; one that ended, ended at ``NOW``."""
    event = Event.objects.create(type="pet.created", data={}, created_at=NOW)
    if state == PENDING:
        fields = {"next_attempt_at": NOW, **fields}
    else:
        fields = {"attempts": 1, "last_attempt_at": NOW, **fields}
    return Delivery.objects.create(endpoint=endpoint, event=event, state=state, **fields)


def dead(make_endpoint) -> Endpoint:
    """An endpoint failing since ``DAYS`` ago, its pause just ended: this attempt is its trial."""
    return make_endpoint(failures=9, failing_since=DEAD_SINCE, paused_until=NOW)


def disabled(endpoint: Endpoint) -> Endpoint:
    endpoint.refresh_from_db()
    assert endpoint.state_at(NOW) == EndpointState.DISABLED
    return endpoint


def the_disabling(endpoint: Endpoint) -> tuple[Event, Entry]:
    (event,) = Event.objects.filter(type=EventType.WEBHOOK_ENDPOINT_DISABLED)
    (entry,) = Entry.objects.filter(action="endpoint.disabled", target_id=str(endpoint.pk))
    return event, entry


@pytest.mark.parametrize(
    ("attempt", "last"),
    [
        (Attempt(503), "HTTP 503"),
        (Attempt(None, "No answer: timed out after 15 s"), "No answer: timed out after 15 s"),
        (Attempt(500, "an error said"), "an error said"),  # its error before its status
    ],
)
def test_a_failed_trial_after_the_days_disables_it_and_fails_what_it_is_owed(
    make_endpoint, attempt, last
):
    endpoint = dead(make_endpoint)
    trial, *owed = [owe(endpoint) for _ in range(3)]
    arrived = owe(endpoint, DELIVERED)
    others = owe(make_endpoint())  # another endpoint's

    services.record(trial, attempt, NOW)

    reason = f"Every attempt failed for {DAYS} days; the last: {last}"
    assert disabled(endpoint).disabled_reason == reason
    assert trial.endpoint.disabled_reason == reason  # the caller's instance shows it too
    rows = Delivery.objects.filter(pk__in=[trial.pk] + [d.pk for d in owed])
    assert set(rows.values_list("state", "attempts", "next_attempt_at")) == {(FAILED, 0, None)}
    assert Delivery.objects.get(pk=trial.pk).last_status == attempt.status
    arrived.refresh_from_db()
    others.refresh_from_db()
    assert (arrived.state, others.state, others.next_attempt_at) == (DELIVERED, PENDING, NOW)
    event, entry = the_disabling(endpoint)
    assert event.data["disabledReason"] == reason
    assert entry.changes == {"enabled": [True, False], "reason": [None, reason]}


def test_the_reason_is_cut_to_what_the_endpoint_keeps(make_endpoint):
    endpoint = dead(make_endpoint)
    trial = owe(endpoint)

    services.record(trial, Attempt(None, "x" * 300), NOW)

    reason = disabled(endpoint).disabled_reason
    assert reason == f"Every attempt failed for {DAYS} days; the last: {'x' * 300}"[:200]
    assert len(reason) == 200


def test_a_failed_trial_within_the_days_leaves_it_paused(make_endpoint):
    endpoint = make_endpoint(
        failures=9, failing_since=DEAD_SINCE + timedelta(seconds=1), paused_until=NOW
    )
    trial, waiting = owe(endpoint), owe(endpoint)

    services.record(trial, Attempt(503), NOW)

    endpoint.refresh_from_db()
    assert endpoint.state_at(NOW) == EndpointState.PAUSED
    assert (
        trial.endpoint.paused_until == endpoint.paused_until == NOW + timedelta(seconds=960)
    )  # the tenth in a row
    rows = Delivery.objects.filter(pk__in=[trial.pk, waiting.pk])
    assert set(rows.values_list("state", "attempts", "next_attempt_at")) == {(PENDING, 0, NOW)}
    assert not Event.objects.filter(type=EventType.WEBHOOK_ENDPOINT_DISABLED).exists()


def test_an_endpoint_disabled_meanwhile_keeps_its_reason_and_what_it_is_owed(make_endpoint):
    endpoint = make_endpoint(
        enabled=False,
        disabled_reason="Disabled by its partner.",
        failures=9,
        failing_since=DEAD_SINCE,
        paused_until=NOW,
    )
    trial, waiting = owe(endpoint), owe(endpoint)

    services.record(trial, Attempt(503), NOW)

    assert disabled(endpoint).disabled_reason == "Disabled by its partner."
    rows = Delivery.objects.filter(pk__in=[trial.pk, waiting.pk])
    assert set(rows.values_list("state", "next_attempt_at")) == {(PENDING, NOW)}


def test_a_410_disables_it_at_once(make_endpoint):
    endpoint = make_endpoint()
    delivery, waiting = owe(endpoint), owe(endpoint)

    services.record(delivery, Attempt(410), NOW)

    reason = "The endpoint answered 410 Gone."
    assert disabled(endpoint).disabled_reason == reason
    delivery.refresh_from_db()
    assert (delivery.state, delivery.attempts, delivery.next_attempt_at) == (FAILED, 1, None)
    waiting.refresh_from_db()
    assert waiting.state == PENDING  # sent when the endpoint is enabled again
    _, entry = the_disabling(endpoint)
    assert entry.changes == {"enabled": [True, False], "reason": [None, reason]}


SPENT = "Every delivery failed through the schedule."


@pytest.mark.parametrize(
    ("arrived_at", "of_this_endpoint", "state", "disables"),
    [
        (timedelta(0), True, DELIVERED, False),  # as it was made: since
        (timedelta(hours=1), True, DELIVERED, False),
        (-timedelta(seconds=1), True, DELIVERED, True),  # before it was made
        (timedelta(hours=1), False, DELIVERED, True),  # to another endpoint
        (timedelta(hours=1), True, FAILED, True),  # attempted since, but not delivered
        (None, True, DELIVERED, True),  # nothing else at all
    ],
)
def test_a_spent_schedule_disables_it_only_if_nothing_arrived_since_the_delivery_was_made(
    make_endpoint, arrived_at, of_this_endpoint, state, disables
):
    endpoint = make_endpoint()
    made = NOW - timedelta(hours=3)
    delivery = owe(endpoint, attempts=3, created_at=made)
    if arrived_at is not None:
        to = endpoint if of_this_endpoint else make_endpoint()
        owe(to, state, last_attempt_at=made + arrived_at)

    services.record(delivery, Attempt(400), NOW)

    delivery.refresh_from_db()
    assert (delivery.state, delivery.attempts, delivery.next_attempt_at) == (FAILED, 4, None)
    endpoint.refresh_from_db()
    assert endpoint.enabled is not disables
    assert endpoint.disabled_reason == (SPENT if disables else "")
