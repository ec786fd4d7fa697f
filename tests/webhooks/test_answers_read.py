"""What an attempt keeps of a receiver's answer, made in this process as a worker makes it: the
start of its body as sent (never decompressed), its Retry-After where a 429 or 503 gives one,
and its duration, from sending to the answer's end."""

from __future__ import annotations

import gzip
import time
from datetime import timedelta
from email.utils import format_datetime

import pytest
from django.utils import timezone

from tests.webhooks.conftest import attempts
from tests.webhooks.raw_receiver import Answer, raw_receiver
from webhooks import answers
from webhooks.delivery import _ms_since
from webhooks.models import RESPONSE_CHARS

pytestmark = pytest.mark.django_db


def answered(status: int, headers: bytes = b"", body: bytes = b"") -> Answer:
    return Answer.whole(
        b"HTTP/1.1 %d Answer\r\n%sContent-Length: %d\r\n\r\n%s" % (status, headers, len(body), body)
    )


def test_the_start_of_a_long_body_is_kept(endpoint_at, receiver):
    receiver.body = b"a" * (RESPONSE_CHARS + 1000)

    (attempt,) = attempts(endpoint_at(receiver.url))

    assert attempt.delivered
    assert attempt.response == "a" * RESPONSE_CHARS


def test_a_compressed_body_is_kept_as_sent(endpoint_at):
    compressed = gzip.compress(b'{"received": true}')
    with raw_receiver() as receiver:
        receiver.answer = answered(200, b"Content-Encoding: gzip\r\n", compressed)

        (attempt,) = attempts(endpoint_at(receiver.url))

    assert attempt.delivered
    assert attempt.response == answers.printable(compressed, RESPONSE_CHARS)
    assert "received" not in attempt.response


def test_a_binary_body_is_kept_as_replacement_characters_within_the_bytes_kept(endpoint_at):
    with raw_receiver() as receiver:
        receiver.answer = answered(200, body=b"\xff" * RESPONSE_CHARS)

        (attempt,) = attempts(endpoint_at(receiver.url))

    # Each byte one replacement character, of three bytes in UTF-8: a third of them fit.
    assert attempt.response == answers.REPLACEMENT * (RESPONSE_CHARS // 3)


@pytest.mark.parametrize(
    ("status", "retry_after", "seconds"),
    [
        (503, "120", 120.0),
        (429, "date", 90.0),  # an HTTP-date 90 s after the post was signed
        (500, "120", None),  # honoured from a 429 or 503 only
        (200, "120", None),
    ],
)
def test_a_retry_after_is_read_from_a_429_or_503(endpoint_at, clock, status, retry_after, seconds):
    if retry_after == "date":
        retry_after = format_datetime(timezone.now() + timedelta(seconds=90), usegmt=True)
    with raw_receiver() as receiver:
        receiver.answer = answered(status, b"Retry-After: %s\r\n" % retry_after.encode())

        (attempt,) = attempts(endpoint_at(receiver.url))

    assert (attempt.status, attempt.retry_after) == (status, seconds)


def test_the_duration_runs_from_sending_to_the_answers_end(endpoint_at):
    with raw_receiver() as receiver:
        # The head at once, the body 0.3 s after it.
        receiver.answer = Answer((b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n", b"ok"), 0.3)

        (attempt,) = attempts(endpoint_at(receiver.url))

    assert attempt.response == "ok"
    assert attempt.duration_ms in range(300, 1000)


def test_a_duration_is_in_whole_milliseconds():
    # Exactly: a receiver's time on loopback is known to a few milliseconds only.
    assert _ms_since(time.monotonic() - 1000) in range(1_000_000, 1_000_100)
