"""A graceful reload under load loses nothing; with gunicorn gone, nginx still answers JSON."""

from __future__ import annotations

import http.client
import signal
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from pathlib import Path

import pytest

from deploy.serve import Front
from tests.front.conftest import assert_front_error, port_of, send_raw

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

CLIENTS = 6
SECONDS = 8


def _workers(front: Front) -> set[str]:
    pid = front.gunicorn.pid
    return set(Path(f"/proc/{pid}/task/{pid}/children").read_text().split())


def test_a_sighup_reload_under_load_loses_no_request(
    own_front: Front, make_key: Callable[..., str]
):
    key = make_key(plan="enterprise", per_minute=1_000_000, per_day=10_000_000)
    statuses: list[int | str] = []
    lock = threading.Lock()
    stop = threading.Event()

    def client() -> None:
        while not stop.is_set():
            connection = http.client.HTTPConnection("127.0.0.1", port_of(own_front), timeout=15)
            try:
                connection.request(
                    "GET", "/v1/categories", headers={"Authorization": f"Bearer {key}"}
                )
                outcome: int | str = connection.getresponse().status
            except OSError as exc:
                outcome = type(exc).__name__
            finally:
                connection.close()
            with lock:
                statuses.append(outcome)

    before = _workers(own_front)
    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    time.sleep(SECONDS / 4)
    own_front.gunicorn.send_signal(signal.SIGHUP)  # new workers, old ones finish and go
    time.sleep(SECONDS / 4)
    own_front.nginx.send_signal(signal.SIGHUP)  # nginx rereads its configuration
    time.sleep(SECONDS / 2)
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    after = _workers(own_front)

    print(
        f"\nSIGHUP to gunicorn and nginx under load: {len(statuses)} requests, "
        f"{statuses.count(200)} OK"
    )
    assert len(statuses) > 100
    assert statuses == [HTTPStatus.OK] * len(statuses)
    assert after  # every worker was replaced
    assert not after & before


def test_with_gunicorn_stopped_nginx_answers_a_json_502(own_front: Front):
    own_front.gunicorn.send_signal(signal.SIGTERM)
    own_front.gunicorn.wait(timeout=40)

    reads = send_raw(own_front, b"GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    writes = send_raw(
        own_front,
        b"POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 2\r\n\r\n{}",
    )

    assert_front_error(reads, 502, "bad_gateway")
    assert_front_error(writes, 502, "bad_gateway")
