"""Whatever a delivery's headers and body hold, the verifier answers with the event or with
``WebhookVerificationError``, never another exception: a receiver that catches only that error
answers 4xx to anything malformed, never 500."""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st
from petstore_client import WebhookVerificationError, verify_webhook

SECRET = "whsec_" + base64.b64encode(b"0123456789abcdef0123456789abcdef").decode()
NOW = 1_800_000_000
NAMES = ("webhook-id", "webhook-timestamp", "webhook-signature")

anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(),
    st.binary(),
    st.lists(st.text(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.text(max_size=5), max_size=3),
)
timestamps = st.one_of(
    st.just(str(NOW)),
    st.integers().map(str),
    st.text(),
    st.sampled_from(["²", "١٢٣", " 1800000000", "1800000000 ", "9" * 5000, "-1", "1e9", ""]),
)
signature_values = st.one_of(
    st.text(),
    st.binary().map(lambda raw: base64.b64encode(raw).decode()),
    st.sampled_from(["v1,", "v1,é", "v1,====", "v1,%%%", ",", "v1", "v1 v1,x"]),
)


def sign(webhook_id: str, timestamp: str, body: bytes) -> str:
    key = base64.b64decode(SECRET.removeprefix("whsec_"))
    mac = hmac.new(key, f"{webhook_id}.{timestamp}.".encode() + body, hashlib.sha256)
    return "v1," + base64.b64encode(mac.digest()).decode()


def answers_or_refuses(body: Any, headers: Any) -> None:
    try:
        event = verify_webhook(body, headers, SECRET, now=NOW)
    except WebhookVerificationError:
        return
    assert isinstance(event, dict)


@settings(max_examples=300, deadline=None)
@given(
    body=st.one_of(st.text(), st.binary(), anything),
    headers=st.one_of(
        anything,
        st.dictionaries(
            st.one_of(st.sampled_from(NAMES), st.text(max_size=20), st.integers()),
            st.one_of(timestamps, signature_values, anything),
            max_size=5,
        ),
    ),
)
@example(
    body=b"{}", headers={"webhook-id": "m", "webhook-timestamp": "²", "webhook-signature": "v1,x"}
)
@example(
    body=b"{}",
    headers={"webhook-id": "m", "webhook-timestamp": str(NOW), "webhook-signature": "v1,é"},
)
@example(
    body=b"{}",
    headers={"webhook-id": "m", "webhook-timestamp": "9" * 5000, "webhook-signature": "v1,x"},
)
@example(
    body=None,
    headers={"webhook-id": "m", "webhook-timestamp": str(NOW), "webhook-signature": "v1,x"},
)
@example(
    body=b"{}", headers={"webhook-id": 1, "webhook-timestamp": NOW, "webhook-signature": ["v1,x"]}
)
@example(body=b"{}", headers=None)
def test_any_headers_and_body_give_the_event_or_the_verification_error(body, headers):
    answers_or_refuses(body, headers)


@settings(max_examples=300, deadline=None)
@given(
    webhook_id=st.text(min_size=1),
    timestamp=timestamps.filter(bool),
    body=st.one_of(st.binary(), st.text().map(str.encode)),
)
@example(webhook_id="m", timestamp=str(NOW), body=b"\xff\xfe not UTF-8")
@example(webhook_id="m", timestamp=str(NOW), body=b"[1, 2]")
@example(webhook_id="m", timestamp=str(NOW), body=b"[" * 100_000 + b"]" * 100_000)
@example(webhook_id="\ud800", timestamp=str(NOW), body=b"{}")
def test_a_signed_body_that_is_no_event_gives_the_verification_error(webhook_id, timestamp, body):
    try:
        signature = sign(webhook_id, timestamp, body)
    except UnicodeEncodeError:
        signature = "v1,AAAA"  # an id that no sender could have signed
    headers = {
        "webhook-id": webhook_id,
        "webhook-timestamp": timestamp,
        "webhook-signature": signature,
    }

    answers_or_refuses(body, headers)
