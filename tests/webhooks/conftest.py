"""A real HTTP receiver on loopback, and the task queue's real workers on the test database."""

from __future__ import annotations

import queue
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import orjson
import pytest
from django.utils.timezone import now
from standardwebhooks import Webhook

from deploy.workers import start_workers, stop_workers
from events.models import Event
from petstore.celery import app
from tests.reliability.conftest import server_env
from tests.waiting import READY_SECONDS
from webhooks.delivery import Attempt, Sender
from webhooks.models import Endpoint


@dataclass
class Delivered:
    path: str
    headers: dict[str, str]
    body: bytes
    at: float = field(default_factory=time.time)  # when it arrived

    @property
    def event(self) -> dict[str, Any]:
        return orjson.loads(self.body)


@dataclass
class Receiver:
    """Records every POST; answers each with the next of ``answers`` (then 200): a status; a
    float, a pause of that many seconds then 200; or ``HANG``."""

    server: ThreadingHTTPServer
    received: list[Delivered] = field(default_factory=list)
    answers: queue.Queue[int | float | None] = field(default_factory=queue.Queue)
    connections: int = 0
    body: bytes = b""  # what every answer carries
    server_names: list[str | None] = field(default_factory=list)  # each TLS handshake's SNI
    # Requests being answered now, and the most ever at once: the attempts in flight to it.
    in_flight: int = 0
    most_in_flight: int = 0
    counting: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        host = str(self.server.server_address[0])
        shown = f"[{host}]" if ":" in host else host  # an IPv6 address, in brackets
        return f"http://{shown}:{self.server.server_port}/hooks"

    def verified(self, secret: str) -> list[dict[str, Any]]:
        """The events whose signatures ``secret`` verifies, as the standardwebhooks package
        verifies them."""
        webhook = Webhook(secret)
        return [webhook.verify(d.body, d.headers) for d in self.received]

    def wait_for(
        self,
        done: Callable[[list[Delivered]], bool],
        seconds: float = READY_SECONDS,
        meanwhile: Callable[[], object] | None = None,
    ) -> None:
        """Until ``done`` holds for what was received, calling ``meanwhile`` (a supervisor's
        check, say) at every look."""
        deadline = time.monotonic() + seconds
        while not done(list(self.received)):
            if time.monotonic() > deadline:
                raise AssertionError(f"not received in {seconds} s: {len(self.received)} only")
            if meanwhile is not None:
                meanwhile()
            time.sleep(0.05)


# An answer that never comes: the POST is held until the test ends (or a minute has passed).
HANG = None


@contextmanager
def serving(
    hang: threading.Event | None = None,
    at: tuple[str, int] = ("127.0.0.1", 0),
    tls: ssl.SSLContext | None = None,
) -> Iterator[Receiver]:
    """A receiver on loopback, on the address and port ``at``, for as long as the block lasts.
    With ``hang``, every POST is recorded and never answered until ``hang`` is set (or a minute
    has passed); with ``tls``, it speaks HTTPS with that context."""
    holder: dict[str, Receiver] = {}
    ended = hang or threading.Event()  # set when the block ends: what hangs is let go

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # a connection stays open for the next request

        def do_POST(self) -> None:
            mine = holder["receiver"]
            with mine.counting:
                mine.in_flight += 1
                mine.most_in_flight = max(mine.most_in_flight, mine.in_flight)
            try:
                self._answer(mine)
            finally:
                with mine.counting:
                    mine.in_flight -= 1

        def _answer(self, mine: Receiver) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            mine.received.append(Delivered(self.path, dict(self.headers.items()), body))
            if hang is not None:
                hang.wait(60)
                return
            try:
                answer = mine.answers.get_nowait()
            except queue.Empty:
                answer = 200
            if answer is HANG:
                ended.wait(60)
                return
            if isinstance(answer, float):  # a pause past the workers' timeout, then 200
                time.sleep(answer)
                answer = 200
            self.send_response(int(answer))
            if answer in (301, 302, 307, 308):
                self.send_header("Location", "http://169.254.169.254/latest/meta-data/")
            self.send_header("Content-Length", str(len(mine.body)))
            self.end_headers()
            self.wfile.write(mine.body)

        def log_message(self, *args: Any) -> None:
            pass

    class Server(ThreadingHTTPServer):
        daemon_threads = True
        address_family = socket.AF_INET6 if ":" in at[0] else socket.AF_INET

        def verify_request(self, request: Any, client_address: Any) -> bool:
            holder["receiver"].connections += 1
            return True

    server = Server(at, Handler)
    holder["receiver"] = Receiver(server)
    if tls is not None:

        def heard(_socket: ssl.SSLObject, name: str | None, _context: ssl.SSLContext) -> None:
            holder["receiver"].server_names.append(name)

        tls.sni_callback = heard
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield holder["receiver"]
    finally:
        ended.set()
        server.shutdown()
        server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """Records every POST; answers each with the next of its ``answers`` (then 200)."""
    with serving() as served:
        yield served


@pytest.fixture
def other_receiver() -> Iterator[Receiver]:
    """A second receiver, with answers of its own."""
    with serving() as served:
        yield served


@pytest.fixture
def hanging_receiver() -> Iterator[Receiver]:
    """Records every POST and never answers it (until the test ends, or a minute has passed)."""
    with serving(hang=threading.Event()) as served:
        yield served


def worker_env(**extra: str) -> dict[str, str]:
    """The workers' environment: the test database and Redis, loopback receivers allowed, and
    a schedule of seconds."""
    return {
        **server_env(),
        "PETSTORE_WEBHOOK_ALLOW_PRIVATE": "1",
        "PETSTORE_WEBHOOK_RETRY_SECONDS": "1,1,1",
        "PETSTORE_WEBHOOK_TIMEOUT_SECONDS": "1",
        "PETSTORE_WEBHOOK_LEASE_SECONDS": "5",
        "PETSTORE_WEBHOOK_PAUSE_SECONDS": "1",
        **extra,
    }


def wait_for_a_worker(seconds: float = READY_SECONDS) -> None:
    """Until a worker answers Celery's ping over the broker: started and consuming, its beat
    beside it. What follows is timed from a running worker, not from a starting one."""
    deadline = time.monotonic() + seconds
    while not app.control.ping(timeout=0.5):
        if time.monotonic() > deadline:
            raise AssertionError(f"no Celery worker answered within {seconds} s")


@pytest.fixture
def workers(transactional_db: None, tmp_path: Path, settings: Any) -> Iterator[None]:
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True  # the receiver is on loopback
    process = start_workers(worker_env(), tmp_path)
    wait_for_a_worker()
    yield
    stop_workers(process)


@pytest.fixture
def endpoint_at(make_account: Callable[..., Any], settings: Any) -> Callable[[str], Endpoint]:
    """Makes an endpoint at the URL it is given, one account's, loopback let through."""
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True
    account = make_account()

    def make(url: str) -> Endpoint:
        return Endpoint.objects.create(account=account, url=url, events=["pet.created"])

    return make


def new_event() -> Event:
    return Event.objects.create(type="pet.created", data={}, created_at=now())


def attempts(endpoint: Endpoint, count: int = 1) -> list[Attempt]:
    """``count`` events attempted one after another in this process, by one Sender, as a
    worker's run attempts them."""
    with Sender(endpoint) as sender:
        return [sender.attempt(new_event()) for _ in range(count)]
