"""`make run` delivers webhooks with nothing more installed: its worker and beat over a folder
for a queue, its server on SQLite, and a real receiver on loopback."""

from __future__ import annotations

from http import HTTPStatus
from pathlib import Path

from deploy.workers import start_workers, stop_workers
from tests.embedded import embedded_env, manage, runserver
from tests.webhooks.conftest import Receiver

# Generous: the embedded worker starts cold, and this test is about delivery, not its speed.
SECONDS = 60


def test_make_run_delivers_a_signed_pet_created(tmp_path: Path, receiver: Receiver):
    queue = tmp_path / "queue"
    queue.mkdir()
    env = {**embedded_env(tmp_path / "db.sqlite3"), "PETSTORE_QUEUE_DIR": str(queue)}
    manage(env, "migrate", "--verbosity", "0")
    manage(env, "seed_demo")
    # make run's own key: the Free plan, every scope a secret key has by default.
    key = manage(env, "createapikey", "--plan", "free").splitlines()[-1]
    workers = start_workers(env, tmp_path, pool="prefork", concurrency=1)
    try:
        with runserver(env, key) as server:
            status, endpoint = server.call(
                "POST", "/v1/webhook_endpoints", {"url": receiver.url, "events": ["pet.created"]}
            )
            assert status == HTTPStatus.CREATED, endpoint
            status, pet = server.call("POST", "/v1/pets", {"name": "Embedded Rex", "categoryId": 1})
            assert status == HTTPStatus.CREATED, pet

            receiver.wait_for(lambda got: len(got) >= 1, seconds=SECONDS)
    finally:
        stop_workers(workers)

    events = receiver.verified(endpoint["secret"])
    assert {event["type"] for event in events} == {"pet.created"}
    assert {event["data"]["id"] for event in events} == {pet["id"]}
    # The queue, its exchange table included, stays in its folder.
    assert (queue / "control" / "celery.exchange").is_file()
