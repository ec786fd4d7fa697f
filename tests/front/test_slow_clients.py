"""Slow clients wait in nginx, never in a gunicorn worker: two workers keep serving."""

from __future__ import annotations

import http.client
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus

from deploy.serve import Front
from tests.front.conftest import WORKERS, connect, port_of

SLOW_HEADERS = 4
SLOW_BODIES = 4
REQUESTS = 200
# nginx's client_header_timeout and client_body_timeout (deploy/nginx.conf), and some slack.
CLIENT_TIMEOUT = 10
SLACK = 5


def _get(front: Front, path: str) -> tuple[int, float]:
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port_of(front), timeout=10)
    try:
        connection.request("GET", path)
        status = connection.getresponse().status
    finally:
        connection.close()
    return status, time.monotonic() - started


def _still_open(sock: socket.socket) -> bool:
    sock.setblocking(False)
    try:
        return sock.recv(1) != b""
    except BlockingIOError:
        return True  # nothing to read and not closed
    except OSError:
        return False
    finally:
        sock.setblocking(True)


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    """True when the server closes ``sock`` (answering or not) within ``seconds``."""
    sock.settimeout(seconds)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return False
    except OSError:
        return True
    return True


def test_slow_connections_hold_no_worker_and_are_cut_after_the_timeout(front: Front):
    opened = time.monotonic()
    slow = []
    for _ in range(SLOW_HEADERS):
        # Headers never finished; no key needed.
        sock = connect(front)
        sock.sendall(b"GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        slow.append(sock)
    for _ in range(SLOW_BODIES):
        # 1 byte of a declared 1,000-byte body.
        sock = connect(front)
        sock.sendall(
            b"POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n{"
        )
        slow.append(sock)
    assert len(slow) > WORKERS * 2  # more than enough to block every worker, were they reached
    time.sleep(0.5)

    try:
        with ThreadPoolExecutor(max_workers=8) as pool:
            results = list(pool.map(lambda _: _get(front, "/healthz"), range(REQUESTS)))
        probe_status, probe_seconds = _get(front, "/healthz")
        held = [_still_open(sock) for sock in slow]
        elapsed = time.monotonic() - opened

        statuses = [status for status, _ in results]
        slowest = max(seconds for _, seconds in results)
        print(
            f"\n{REQUESTS} requests beside {len(slow)} slow connections: "
            f"{statuses.count(200)} OK, slowest {slowest:.3f} s; /healthz {probe_seconds:.3f} s"
        )
        assert statuses == [HTTPStatus.OK] * REQUESTS
        assert probe_status == HTTPStatus.OK
        assert probe_seconds < 1
        assert elapsed < CLIENT_TIMEOUT  # the slow connections were held all along …
        assert all(held)

        # … and are cut once nginx's timeouts pass, each without reaching the service.
        closed = [
            _closed_within(sock, CLIENT_TIMEOUT + SLACK - (time.monotonic() - opened))
            for sock in slow
        ]
        assert all(closed)
    finally:
        for sock in slow:
            sock.close()
