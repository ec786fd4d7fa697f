"""The connection a Sender keeps between the posts of a run: kept to the same address once an
answer has been read whole, made anew after an answer left unread, and made anew when the
endpoint's host resolves to another address between two posts (each post connects to the
address checked for it)."""

from __future__ import annotations

import socket

import pytest

from tests.webhooks.conftest import attempts, new_event, serving
from tests.webhooks.raw_receiver import Answer, raw_receiver
from webhooks.delivery import Sender
from webhooks.models import RESPONSE_CHARS

pytestmark = pytest.mark.django_db


def test_a_connection_is_kept_for_the_next_post_once_an_answer_is_read_whole(endpoint_at, receiver):
    receiver.body = b"a" * RESPONSE_CHARS  # the most read: the longest answer read whole

    kept = attempts(endpoint_at(receiver.url), 3)

    assert [attempt.status for attempt in kept] == [200, 200, 200]
    assert [attempt.retry_after for attempt in kept] == [None, None, None]
    assert receiver.connections == 1


def test_an_answer_left_unread_is_cut_and_its_connection_not_kept(endpoint_at, settings):
    settings.PETSTORE_WEBHOOK_TIMEOUT_SECONDS = 1
    with raw_receiver() as receiver:
        # One byte more than is kept of a longer body, then nothing: the post does not wait
        # for the rest.
        head = b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n"
        receiver.answer = Answer((head + b"b" * (RESPONSE_CHARS + 1),), hold=True)

        first, second = attempts(endpoint_at(receiver.url), 2)

    for attempt in (first, second):
        assert (attempt.status, attempt.response) == (200, "b" * RESPONSE_CHARS)
        assert attempt.duration_ms in range(500)
    assert receiver.requests == 2  # the second on a connection of its own


@pytest.fixture
def resolved(monkeypatch) -> dict[str, str]:
    """receiver.test resolved to the address the test sets (these machines have no DNS)."""
    address: dict[str, str] = {}
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        if host == "receiver.test":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address["now"], port))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr("socket.getaddrinfo", getaddrinfo)
    return address


def test_a_host_resolved_to_another_address_is_connected_to_anew(endpoint_at, resolved):
    with serving(at=("127.0.0.1", 0)) as first:
        port = first.server.server_port
        endpoint = endpoint_at(f"http://receiver.test:{port}/hooks")
        with serving(at=("127.0.0.2", port)) as second, Sender(endpoint) as sender:
            resolved["now"] = "127.0.0.1"
            to_first = sender.attempt(new_event())
            resolved["now"] = "127.0.0.2"
            to_second = sender.attempt(new_event())

    assert to_first.delivered
    assert to_second.delivered
    assert (len(first.received), len(second.received)) == (1, 1)
