"""Workers come and go (gunicorn replaces each after max_requests): the counts they made stay
in the totals, the directory keeps files for live processes only and one file of totals per
kind, and /metrics answers only the operator, through nginx like any path."""

from __future__ import annotations

import json
import shutil
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from deploy.serve import start_front
from petstore.metrics_directory import VARIABLE, fresh
from tests.metrics.test_stack import scrape, total
from tests.network import free_port
from tests.reliability.conftest import server_env
from tests.waiting import READY_SECONDS

REQUESTS = 100  # two workers, each replaced after 2: 50 replacements
TOKEN = "operator-token-for-tests"


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_fifty_worker_replacements_lose_no_count_and_leave_no_dead_files():
    run_dir = Path(tempfile.mkdtemp(prefix="petstore-front-"))
    metrics_dir = fresh(run_dir / "metrics")
    env = {
        **server_env(),
        VARIABLE: str(metrics_dir),
        # Not loopback: only the token opens /metrics here.
        "PETSTORE_METRICS_ALLOW": "192.0.2.0/24",
        "PETSTORE_METRICS_TOKEN": TOKEN,
    }
    front = start_front(
        env=env,
        listen=f"127.0.0.1:{free_port()}",
        run_dir=run_dir,
        workers=2,
        gunicorn_args=["--max-requests", "2", "--max-requests-jitter", "0"],
    )
    try:
        # The front's own start-up probes were counted already.
        before = scrape(front, TOKEN)
        # Every other request waits for a worker to boot: given the time a loaded host needs.
        for _ in range(REQUESTS):
            with urllib.request.urlopen(front.url + "/healthz", timeout=READY_SECONDS) as response:
                assert response.status == 200
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(front.url + "/metrics", timeout=READY_SECONDS)
        samples = scrape(front, TOKEN)
        live = {str(pid) for pid in _children(front.gunicorn.pid)}
        files = sorted(path.name for path in metrics_dir.glob("*.db"))
    finally:
        front.stop(timeout=40)
        shutil.rmtree(run_dir, ignore_errors=True)

    assert refused.value.code == 404
    body = json.loads(refused.value.read())
    assert body == {"code": "not_found", "message": "Not found.", "status": 404}
    for name in ("petstore_http_requests_total", "petstore_http_request_duration_seconds_count"):
        counted = total(samples, name, route="healthz") - total(before, name, route="healthz")
        assert counted == REQUESTS, name
    # The refused scrape was counted too: a 404 of the metrics route.
    assert total(samples, "petstore_http_requests_total", route="metrics", status="404") == 1
    # Both scrapes with the token, the first counted by the second.
    assert total(samples, "petstore_http_requests_total", route="metrics", status="200") == 1
    dead = [name for name in files if name.rsplit("_", 1)[-1][:-3] not in live | {"totals"}]
    assert dead == [], (files, live)
    assert {"counter_totals.db", "histogram_totals.db"} <= set(files)
    assert len(files) <= 2 + 2 * len(live)


def _children(pid: int) -> list[int]:
    found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(child) for child in found]
