"""The metrics as an operator scrapes them from `make serve`'s stack: nginx, three gunicorn
workers and the Celery workers sharing one multiprocess directory, scraped once through nginx."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from deploy.serve import Front, start_front
from deploy.workers import start_workers, stop_workers
from petstore.metrics_directory import VARIABLE, fresh
from tests.network import free_port
from tests.waiting import READY_SECONDS, wait_until
from tests.webhooks.conftest import wait_for_a_worker, worker_env

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

LABELS = {"route", "method", "status", "outcome", "plan", "type", "result", "task", "state", "le"}


def call(front: Front, method: str, path: str, key: str = "", body: dict | None = None) -> int:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    data = None
    if body is not None:
        data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
    request = urllib.request.Request(front.url + path, data, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=READY_SECONDS) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def scrape(front: Front, token: str = "") -> dict[str, list[tuple[dict[str, str], float]]]:
    """Every sample of a scrape through nginx, by sample name."""
    return scrape_url(front.url, token)


def scrape_url(url: str, token: str = "") -> dict[str, list[tuple[dict[str, str], float]]]:
    """Every sample of a scrape of the server at ``url``, by sample name."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    request = urllib.request.Request(url + "/metrics", headers=headers)
    with urllib.request.urlopen(request, timeout=READY_SECONDS) as response:
        text = response.read().decode()
    samples: dict[str, list[tuple[dict[str, str], float]]] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples.setdefault(sample.name, []).append((sample.labels, sample.value))
    return samples


def total(samples, name: str, **labels: str) -> float:
    return sum(
        value
        for found, value in samples.get(name, [])
        if all(found.get(k) == v for k, v in labels.items())
    )


@pytest.fixture
def stack(tmp_path: Path, settings) -> Iterator[Front]:
    run_dir = Path(tempfile.mkdtemp(prefix="petstore-front-"))
    metrics_dir = fresh(run_dir / "metrics")
    env = {**worker_env(), VARIABLE: str(metrics_dir)}  # loopback receivers allowed
    front = start_front(env=env, listen=f"127.0.0.1:{free_port()}", run_dir=run_dir, workers=3)
    workers = start_workers(env, tmp_path)
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True
    try:
        wait_for_a_worker()
        yield front
    finally:
        stop_workers(workers, kill=True)
        front.stop(timeout=40)
        shutil.rmtree(run_dir, ignore_errors=True)


def test_a_scrape_counts_every_request_its_outcome_and_the_webhooks(stack, make_key, dog, receiver):
    key = make_key(plan="enterprise")
    limited = make_key(plan="enterprise", per_minute=2)
    before = scrape(stack)
    made = Counter[tuple[str, str, str]]()

    def expect(route: str, method: str, status: int) -> None:
        made[(route, method, str(status))] += 1

    for _ in range(12):
        expect("pet-list", "GET", call(stack, "GET", "/v1/pets", key))
    for n in range(3):
        expect("pet-detail", "GET", call(stack, "GET", f"/v1/pets/{900_000 + n}", key))
    expect("category-list", "GET", call(stack, "GET", "/v1/categories", "not-a-key"))
    for _ in range(3):
        expect("category-list", "GET", call(stack, "GET", "/v1/categories", limited))
    expect("unmatched", "GET", call(stack, "GET", "/nowhere"))

    def subscribe_and_add_a_pet(name: str) -> None:
        body = {"url": f"{receiver.url}?{name}", "events": ["pet.created"]}
        expect(
            "webhook-endpoint-list", "POST", call(stack, "POST", "/v1/webhook_endpoints", key, body)
        )
        pet = {"name": name, "categoryId": dog.pk}
        expect("pet-list", "POST", call(stack, "POST", "/v1/pets", key, pet))

    receiver.answers.put(410)  # the first delivery fails, and disables its endpoint…
    subscribe_and_add_a_pet("Rex")
    receiver.wait_for(lambda got: len(got) == 1, seconds=READY_SECONDS)
    # …and the next, to an endpoint of its own, is delivered.
    subscribe_and_add_a_pet("Max")
    receiver.wait_for(lambda got: len(got) == 2, seconds=READY_SECONDS)

    # The worker records an attempt after the receiver has answered.
    def both_recorded() -> bool:
        scraped = scrape(stack)
        results = ("delivered", "rejected")
        return all(total(scraped, "petstore_webhook_attempts_total", result=r) for r in results)

    wait_until(both_recorded, "both attempts recorded in the metrics")
    after = scrape(stack)

    assert ("pet-detail", "GET", "404") in made
    assert made[("category-list", "GET", "429")] == 1
    for (route, method, status), count in made.items():
        counted = total(
            after, "petstore_http_requests_total", route=route, method=method, status=status
        )
        counted -= total(
            before, "petstore_http_requests_total", route=route, method=method, status=status
        )
        assert counted == count, (route, method, status)
        timed = total(
            after, "petstore_http_request_duration_seconds_count", route=route, method=method
        )
        timed -= total(
            before, "petstore_http_request_duration_seconds_count", route=route, method=method
        )
        assert timed == sum(n for (r, m, _), n in made.items() if (r, m) == (route, method))
    assert total(after, "petstore_admissions_total", outcome="refused", plan="enterprise") == 1
    assert total(after, "petstore_admissions_total", outcome="unauthorized", plan="none") == 1
    assert total(after, "petstore_events_total", type="pet.created") == 2
    assert total(after, "petstore_webhook_attempts_total", result="delivered") == 1
    assert total(after, "petstore_webhook_attempts_total", result="rejected") == 1
    assert total(after, "petstore_webhook_delivery_latency_seconds_count") == 1
    assert (
        total(after, "petstore_celery_tasks_total", task="webhooks.tasks.dispatch", state="success")
        >= 1
    )
    assert total(after, "petstore_webhook_endpoints", state="disabled") == 1
    assert total(after, "petstore_webhook_endpoints", state="healthy") == 1
    assert total(after, "petstore_webhook_backlog") == 0
    assert_bounded(after, {key, limited})


def assert_bounded(samples, keys: set[str]) -> None:
    """No label is a path, a key (or its prefix) or an account: names and values from short,
    known lists only."""
    for name, found in samples.items():
        assert name.startswith("petstore_") or name.startswith(("process_", "python_")), name
        for labels, _ in found:
            assert set(labels) <= LABELS, (name, labels)
            for label, value in labels.items():
                assert not value.startswith("/"), (name, labels)
                assert not any(key[:16] in value for key in keys), (name, labels)
                assert re.fullmatch(r"[A-Za-z0-9_.+:-]+", value), (name, labels)
                if label in ("status",):
                    assert re.fullmatch(r"[1-5][0-9][0-9]", value)
