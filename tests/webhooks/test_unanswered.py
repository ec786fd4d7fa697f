"""An attempt that gets no answer, made in this process as a worker makes it: refused, never
accepted, never finished, trickled past its timeout, cut short, or not HTTP at all; each
recorded with why in words, its kind, and how long it took."""

from __future__ import annotations

import pytest

from tests.webhooks.conftest import attempts
from tests.webhooks.raw_receiver import Answer, raw_receiver
from tests.webhooks.unreachable import closed_port, full_backlog
from webhooks.delivery import ERROR_CHARS
from webhooks.models import AttemptError

pytestmark = pytest.mark.django_db

# The timeout each test waits out, and the other one, longer: an error names the one that was up.
UP, OTHER = 1, 3
# A timed-out attempt's duration: at least its timeout, and not much more.
TIMED_OUT_MS = range(UP * 1000, UP * 1000 + 1000)


@pytest.fixture
def connect_timeout(settings):
    settings.PETSTORE_WEBHOOK_CONNECT_TIMEOUT_SECONDS = UP
    settings.PETSTORE_WEBHOOK_TIMEOUT_SECONDS = OTHER


@pytest.fixture
def answer_timeout(settings):
    settings.PETSTORE_WEBHOOK_CONNECT_TIMEOUT_SECONDS = OTHER
    settings.PETSTORE_WEBHOOK_TIMEOUT_SECONDS = UP


def test_a_refused_connection_is_no_connection(endpoint_at):
    port = closed_port()

    (attempt,) = attempts(endpoint_at(f"http://127.0.0.1:{port}/hooks"))

    assert (attempt.status, attempt.error_kind) == (None, AttemptError.CONNECTION)
    assert attempt.error == (
        f"No connection: NewConnectionError: PlainConnection(host='127.0.0.1', port={port}): "
        "Failed to establish a new connection: [Errno 111] Connection refused"
    )
    assert attempt.duration_ms in range(1000)


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_a_connection_never_accepted_times_out_after_the_connect_timeout(
    endpoint_at, connect_timeout, scheme
):
    with full_backlog() as port:
        (attempt,) = attempts(endpoint_at(f"{scheme}://127.0.0.1:{port}/hooks"))

    assert (attempt.status, attempt.error_kind) == (None, AttemptError.TIMEOUT)
    assert attempt.error == f"No connection: timed out after {UP} s"
    assert attempt.duration_ms in TIMED_OUT_MS


def test_an_answer_never_finished_times_out_after_the_answer_timeout(endpoint_at, answer_timeout):
    with raw_receiver() as receiver:
        receiver.answer = Answer((b"HTTP/1.1 200 OK\r\n",), hold=True)  # its head never ends

        (attempt,) = attempts(endpoint_at(receiver.url))

    assert (attempt.status, attempt.error_kind) == (None, AttemptError.TIMEOUT)
    assert attempt.error == f"No whole answer: timed out after {UP} s"
    assert attempt.duration_ms in TIMED_OUT_MS


def test_an_answer_trickled_past_the_timeout_times_out_though_each_byte_came_in_time(
    endpoint_at, answer_timeout
):
    raw = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
    with raw_receiver() as receiver:
        # A byte every 0.3 s: each well within the timeout, the whole answer far past it.
        receiver.answer = Answer(tuple(raw[n : n + 1] for n in range(len(raw))), pause=0.3)

        (attempt,) = attempts(endpoint_at(receiver.url))

    assert (attempt.status, attempt.error_kind) == (None, AttemptError.TIMEOUT)
    assert attempt.error == f"No whole answer: timed out after {UP} s"
    assert attempt.duration_ms in TIMED_OUT_MS


def test_a_connection_closed_mid_body_is_no_whole_answer_and_the_next_connects_anew(
    endpoint_at, answer_timeout
):
    with raw_receiver() as receiver:
        receiver.answer = Answer.whole(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this")

        first, second = attempts(endpoint_at(receiver.url), 2)

    for attempt in (first, second):
        assert (attempt.status, attempt.error_kind) == (None, AttemptError.CONNECTION)
        assert attempt.error == (
            "No whole answer: ProtocolError: ('Connection broken: IncompleteRead(9 bytes read, "
            "91 more expected)', IncompleteRead(9 bytes read, 91 more expected))"
        )
        assert attempt.duration_ms in range(1000)
    assert receiver.requests == 2


def test_an_answer_that_is_not_http_is_said_in_words_cut_to_the_errors_length(
    endpoint_at, answer_timeout
):
    with raw_receiver() as receiver:
        receiver.answer = Answer.whole(b"x" * 1000 + b"\r\n")

        (attempt,) = attempts(endpoint_at(receiver.url))

    assert (attempt.status, attempt.error_kind) == (None, AttemptError.CONNECTION)
    said = "No whole answer: BadStatusLine: "
    assert attempt.error == said + "x" * (ERROR_CHARS - len(said))
    assert attempt.duration_ms in range(1000)
