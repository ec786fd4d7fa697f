"""A partner's night (#43), as one test. Its receiver fails for three days (5xx, then a hang):
the endpoint is paused, then disabled. In the morning the partner reads why in the deliveries
list, fixes the receiver, enables the endpoint again and recovers since the outage began; every
failed delivery arrives exactly once more, verified by the Python and the JavaScript Standard
Webhooks libraries. ``webhook_endpoint.disabled`` was in the account's feed and was sent to its
other endpoint. On the fixed clock, with the workers' own task run here."""

from __future__ import annotations

import base64
import dataclasses
import json
import shutil
import subprocess
from datetime import datetime, timedelta
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
from django.db.models import Min
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

from events import positions
from events.models import Event
from tests.conftest import Clock
from tests.webhooks.conftest import HANG, Delivered, Receiver
from tests.webhooks.test_update import send, subscribe
from webhooks import services, tasks
from webhooks.models import Delivery, DeliveryState, Endpoint

pytestmark = pytest.mark.django_db

DAYS = 3
# What the failing receiver answers: a JSON error longer than the 512 bytes a delivery keeps.
ERROR_BODY = json.dumps(
    {"error": "upstream_unavailable", "trace": ["at Pool.connect (db/pool.js:42:11)"] * 20}
).encode()
VERIFIER = Path(__file__).with_name("verify_standard_webhooks.mjs")
NODE_MODULES = Path(__file__).resolve().parents[2] / ".tools" / "typescript" / "node_modules"


@pytest.fixture(autouse=True)
def _workers_settings(settings):
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True  # the receivers are on loopback
    settings.PETSTORE_WEBHOOK_ENDPOINT_CONCURRENCY = 1  # one run at a time, in this process
    settings.PETSTORE_WEBHOOK_DISABLE_AFTER_DAYS = DAYS
    settings.PETSTORE_WEBHOOK_TIMEOUT_SECONDS = 1  # a hang costs the test a second


def answer(receiver: Receiver, *answers: int | None) -> None:
    """From now on the receiver answers these, in turn (then 200)."""
    while not receiver.answers.empty():
        receiver.answers.get_nowait()
    for each in answers:
        receiver.answers.put(each)


def work() -> None:
    """What the workers do at this moment: the new events placed and fanned out, and what is
    due sent by their task, until nothing more is."""
    for _ in range(100):
        positions.place_committed()
        services.fan_out()
        runs = services.lease_due()
        if not runs:
            return
        for run in runs:
            tasks._send(run)
    raise AssertionError("still due after 100 passes")


def work_until(clock: Clock, endpoint: Endpoint, until: datetime) -> None:
    """Work, moving the clock to each moment the endpoint is due again, until ``until`` or
    until it is disabled."""
    for _ in range(1000):
        work()
        endpoint.refresh_from_db()
        pending = Delivery.objects.filter(endpoint=endpoint, state=DeliveryState.PENDING)
        earliest = pending.aggregate(at=Min("next_attempt_at"))["at"]
        if not endpoint.enabled or earliest is None:
            return
        due = max(earliest, endpoint.paused_until or earliest)
        if due > until:
            return
        assert due > timezone.now(), "due now, yet nothing was leased"
        clock.set(due)
    raise AssertionError("still working")


def verified_in_javascript(tmp_path: Path, signed: list[tuple[str, Delivered]]) -> list[Any]:
    """What the JavaScript Standard Webhooks library makes of each delivery with its secret, on
    its arrival: ``{"verified": id}`` or ``{"refused": why}``."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is missing: install Node.js 20 with npm, then run `make typescript`.")
    if not (NODE_MODULES / "standardwebhooks" / "package.json").exists():
        pytest.fail(
            f"{NODE_MODULES / 'standardwebhooks'} is missing: run `make typescript` "
            "(make test does it first)."
        )
    deliveries = tmp_path / "deliveries.json"
    deliveries.write_text(
        json.dumps(
            [
                {
                    "secret": secret,
                    "body": base64.b64encode(delivered.body).decode(),
                    "headers": delivered.headers,
                    "receivedAt": delivered.at,
                }
                for secret, delivered in signed
            ]
        )
    )
    ran = subprocess.run(
        [node, str(VERIFIER), str(NODE_MODULES), str(deliveries)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout)


def test_a_partners_night_ends_with_every_failed_delivery_arriving_once_more(
    client, make_key, dog, receiver, other_receiver, clock, tmp_path
):
    key = make_key()  # the partner's secret key: every scope, webhooks:read among them
    hooks = subscribe(client, key, receiver.url, "pet.created")
    alerts = subscribe(client, key, other_receiver.url, "webhook_endpoint.disabled")
    endpoint = Endpoint.objects.get(pk=hooks["id"])
    path = f"/v1/webhook_endpoints/{hooks['id']}"

    def add(*names: str) -> None:
        for name in names:
            added = send(client, "POST", key, "/v1/pets", {"name": name, "categoryId": dog.pk})
            assert added.status_code == HTTPStatus.CREATED, added.content

    def deliveries() -> list[dict[str, Any]]:
        listed = send(client, "GET", key, f"{path}/deliveries")
        assert listed.status_code == HTTPStatus.OK, listed.content
        return listed.json()

    # The evening: the receiver answers.
    add("Rex")
    work()
    assert len(receiver.received) == 1

    # The outage: 500s, each with a long error, while animals are added.
    clock.advance(3600)
    outage_began = timezone.now()
    receiver.body = ERROR_BODY
    answer(receiver, *[HTTPStatus.INTERNAL_SERVER_ERROR] * 1000)
    add("Bella", "Milo", "Olive")
    work_until(clock, endpoint, outage_began + timedelta(hours=1))
    paused = send(client, "GET", key, path).json()
    assert (paused["state"], paused["enabled"]) == ("paused", True)
    assert paused["pausedUntil"] is not None
    for day, names in ((1, ["Luna"]), (2, ["Oscar", "Coco"])):
        work_until(clock, endpoint, outage_began + timedelta(days=day))
        clock.set(outage_began + timedelta(days=day))
        add(*names)
    dead_at = outage_began + timedelta(days=DAYS)
    work_until(clock, endpoint, dead_at - timedelta(minutes=45))
    assert endpoint.enabled
    # Then it hangs, until the first trial after the days disables the endpoint.
    answer(receiver, *[HANG] * 10)
    tried = len(receiver.received)
    work_until(clock, endpoint, dead_at + timedelta(hours=1))
    hung = len(receiver.received) - tried
    assert not endpoint.enabled
    assert endpoint.failing_since == outage_began
    assert dead_at <= timezone.now() <= dead_at + timedelta(minutes=30)
    assert 2 <= hung <= 3  # trials half an hour apart, from 45 minutes before

    # The morning: the partner reads why.
    disabled = send(client, "GET", key, path).json()
    assert (disabled["state"], disabled["enabled"]) == ("disabled", False)
    reason = disabled["disabledReason"]
    assert reason.startswith(f"Every attempt failed for {DAYS} days; the last: ")
    assert "timed out" in reason
    rows = deliveries()
    uids = {event.data["name"]: event.uid for event in Event.objects.filter(type="pet.created")}
    assert [row["eventId"] for row in rows if row["state"] == "delivered"] == [uids["Rex"]]
    failed = sorted((row for row in rows if row["state"] == "failed"), key=lambda row: row["id"])
    assert len(rows) == 1 + len(failed)
    names = ["Bella", "Milo", "Olive", "Luna", "Oscar", "Coco"]
    owed = [uids[name] for name in names]
    assert [row["eventId"] for row in failed] == owed
    assert {row["nextAttemptAt"] for row in failed} == {None}
    tries = {name: row["lastAttempt"] for name, row in zip(names, failed, strict=True)}
    # A paused endpoint's trial is its oldest delivery: Bella's hung last; Milo's and Olive's
    # were answered before the pause; those made during it were never tried.
    bella = tries["Bella"]
    assert (bella["status"], bella["error"], bella["response"]) == (None, "timeout", "")
    assert bella["durationMs"] >= 1000  # the timeout here is a second
    assert len(ERROR_BODY) > 512
    for name in ("Milo", "Olive"):
        assert (tries[name]["status"], tries[name]["error"]) == (500, "status")
        assert tries[name]["response"] == ERROR_BODY[:512].decode()
        assert isinstance(tries[name]["durationMs"], int)
    assert [tries[name] for name in ("Luna", "Oscar", "Coco")] == [None, None, None]

    # The account was told, in its feed and at its other endpoint.
    (alert,) = other_receiver.received
    told = Webhook(alerts["secret"]).verify(alert.body, alert.headers)
    assert told["type"] == "webhook_endpoint.disabled"
    assert (told["data"]["id"], told["data"]["state"]) == (hooks["id"], "disabled")
    assert told["data"]["disabledReason"] == reason
    feed = send(client, "GET", key, "/v1/events?type=webhook_endpoint.disabled")
    assert feed.status_code == HTTPStatus.OK, feed.content
    (listed,) = feed.json()
    assert listed["id"] == told["id"] == alert.headers["webhook-id"]
    assert listed["data"]["id"] == hooks["id"]

    # The partner fixes the receiver and enables the endpoint again: what failed waits for
    # recover.
    clock.advance(5 * 3600)
    answer(receiver)
    receiver.body = b'{"received":true}'
    enabled = send(client, "PATCH", key, path, {"enabled": True})
    assert enabled.status_code == HTTPStatus.OK, enabled.content
    assert (enabled.json()["state"], enabled.json()["enabled"]) == ("healthy", True)
    assert (enabled.json()["pausedUntil"], enabled.json()["disabledReason"]) == (None, None)
    before = len(receiver.received)
    work()
    assert len(receiver.received) == before

    # It recovers since the outage began, as the oldest failed delivery says.
    since = failed[0]["createdAt"]
    assert parse_datetime(since) == outage_began
    recovered = send(client, "POST", key, f"{path}/recover", {"since": since})
    assert recovered.status_code == HTTPStatus.ACCEPTED, recovered.content
    assert recovered.json() == {"requeued": len(owed), "hasMore": False}
    work()

    arrived = receiver.received[before:]
    assert [delivered.headers["webhook-id"] for delivered in arrived] == owed
    secret = hooks["secret"]
    assert [Webhook(secret).verify(d.body, d.headers)["id"] for d in arrived] == owed
    clock.advance(86400)
    work()
    assert len(receiver.received) == before + len(owed)  # once more, and only once
    rows = deliveries()
    assert {row["state"] for row in rows} == {"delivered"}
    assert len(rows) == 1 + len(owed)
    for row in rows[: len(owed)]:
        last = row["lastAttempt"]
        assert (last["status"], last["error"], last["response"]) == (200, None, '{"received":true}')

    # A partner's Node.js receiver verifies each alike, and refuses a body changed on the way.
    first = arrived[0]
    tampered = dataclasses.replace(first, body=first.body.replace(b'"name":"', b'"name":"Not '))
    assert tampered.body != first.body
    with pytest.raises(WebhookVerificationError):
        Webhook(secret).verify(tampered.body, tampered.headers)
    in_javascript = verified_in_javascript(
        tmp_path,
        [(secret, delivered) for delivered in arrived]
        + [(alerts["secret"], alert), (secret, tampered)],
    )
    assert in_javascript == [
        *({"verified": uid} for uid in owed),
        {"verified": told["id"]},
        {"refused": "No matching signature found"},
    ]
