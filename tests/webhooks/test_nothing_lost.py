"""Nothing lost: a thousand animals added by 16 clients through gunicorn while the workers are
SIGKILLed once and the broker's Redis restarts once; the receiver still gets every
``pet.created``, signed, and the feed lists each once."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus
from pathlib import Path

import pytest
from standardwebhooks import Webhook

from deploy.workers import SupervisedWorkers
from tests.network import free_port, redis_server
from tests.reliability.conftest import start_instance
from tests.waiting import READY_SECONDS
from tests.webhooks.conftest import worker_env

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

PETS = 1_000
CLIENTS = 16


def test_every_event_reaches_the_receiver_through_a_killed_worker_and_a_broker_restart(
    make_key, dog, receiver, tmp_path: Path, monkeypatch
):
    monkeypatch.setenv("PETSTORE_WEBHOOK_ALLOW_PRIVATE", "1")  # the receiver is on loopback
    key = make_key(plan="enterprise")
    broker_port = free_port()
    broker = redis_server(broker_port)
    env = worker_env(REDIS_URL=f"redis://127.0.0.1:{broker_port}/0")
    workers = SupervisedWorkers(env, tmp_path)
    instance = start_instance()
    try:
        endpoint = instance.call(
            "POST", "/v1/webhook_endpoints", key, {"url": receiver.url, "events": ["pet.created"]}
        )
        assert endpoint.status == HTTPStatus.CREATED
        secret = endpoint.body["secret"]  # type: ignore[index]

        def add(n: int) -> int:
            body = {"name": f"Pet {n}", "categoryId": dog.pk}
            return instance.call("POST", "/v1/pets", key, body, timeout=READY_SECONDS).status

        # Celery's worker sometimes exits on the broker's restart (kombu's Redis transport:
        # "Unrecoverable error: AttributeError"), sooner or later: its supervisor looks all along,
        # as make serve's does, and starts it again whenever it finds it gone.
        supervise = workers.keep_running
        with ThreadPoolExecutor(max_workers=CLIENTS) as pool:
            added = pool.map(add, range(PETS))
            receiver.wait_for(lambda got: len(got) >= 50, READY_SECONDS, supervise)
            workers.stop(kill=True)  # the worker and its beat, mid-delivery
            assert workers.keep_running()  # as make serve's supervision finds it, within 0.5 s
            receiver.wait_for(lambda got: len(got) >= 300, READY_SECONDS, supervise)
            broker.terminate()
            broker.wait(timeout=10)
            broker = redis_server(broker_port)
            statuses = list(added)
        assert statuses == [HTTPStatus.CREATED] * PETS

        receiver.wait_for(
            lambda got: len({d.headers["webhook-id"] for d in got}) >= PETS,
            READY_SECONDS,
            supervise,
        )
        webhook = Webhook(secret)
        delivered = {webhook.verify(d.body, d.headers)["id"] for d in receiver.received}

        listed: list[str] = []
        path = "/v1/events?type=pet.created&limit=100"
        while True:
            page = instance.call("GET", path, key)
            assert page.status == HTTPStatus.OK
            if not page.body:
                break
            assert isinstance(page.body, list)
            listed += [event["id"] for event in page.body]
            link = page.headers["Link"]
            path = link[link.index("/v1/") : link.index(">")]
    finally:
        workers.stop()
        instance.process.terminate()
        instance.process.wait(timeout=15)
        broker.terminate()

    print(
        f"\n{PETS} pets: {len(receiver.received)} deliveries received, "
        f"{len(delivered)} distinct events, {len(listed)} listed"
    )
    assert len(delivered) == PETS
    assert len(listed) == PETS
    assert set(listed) == delivered
