"""A graceful reload under load loses nothing; with gunicorn gone, nginx still answers JSON."""

from __future__ import annotations

import http.client
import signal
import threading
from collections.abc import Callable
from http import HTTPStatus
from pathlib import Path

import pytest

from deploy.serve import Front
from tests.front.conftest import WORKERS, assert_front_error, port_of, send_raw
from tests.waiting import READY_SECONDS, wait_until

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

CLIENTS = 6
# Requests answered before the reload, between the two signals, and after both.
STRETCH = 40


def _workers(front: Front) -> set[str]:
    pid = front.gunicorn.pid
    return set(Path(f"/proc/{pid}/task/{pid}/children").read_text().split())


def test_a_sighup_reload_under_load_loses_no_request(
    own_front: Front, make_key: Callable[..., str]
):
    key = make_key(plan="enterprise")
    statuses: list[int | str] = []
    lock = threading.Lock()
    stop = threading.Event()

    def client() -> None:
        while not stop.is_set():
            connection = http.client.HTTPConnection(
                "127.0.0.1", port_of(own_front), timeout=READY_SECONDS
            )
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

    def answered(count: int) -> Callable[[], bool]:
        def done() -> bool:
            with lock:
                return len(statuses) >= count

        return done

    def replaced() -> bool:
        now = _workers(own_front)
        return len(now) == WORKERS and not now & before

    # Each step waits for requests to have gone through, not for a time: on a loaded machine
    # the clients are slower, and the reload too.
    before = _workers(own_front)
    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    try:
        wait_until(answered(STRETCH), "requests before the reload")
        own_front.gunicorn.send_signal(signal.SIGHUP)  # new workers, old ones finish and go
        wait_until(replaced, "gunicorn to replace its workers")
        wait_until(answered(len(statuses) + STRETCH), "requests after gunicorn's reload")
        own_front.nginx.send_signal(signal.SIGHUP)  # nginx rereads its configuration
        wait_until(answered(len(statuses) + STRETCH), "requests after nginx's reload")
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=READY_SECONDS)
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
