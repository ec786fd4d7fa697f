"""A secret that is no secret (unset, only the prefix, not base64) is refused with
``WebhookSecretError`` when the verifier is made, and by ``verify_webhook``, before any
delivery is looked at: signed with an empty key, a forged event would verify."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

import pytest
from petstore_client import (
    WebhookSecretError,
    WebhookVerificationError,
    WebhookVerifier,
    verify_webhook,
)

NOW = 1_800_000_000
SECRET = "whsec_" + base64.b64encode(b"0123456789abcdef0123456789abcdef").decode()
NOT_SECRETS = ["", "whsec_", "whsec_!!!!", "!!!!", "whsec_abc", "whsec_ "]


def forged_with(key: bytes) -> tuple[bytes, dict[str, str]]:
    """A delivery anyone can sign: with the key an unusable secret decodes to."""
    body = json.dumps({"id": "evt_forged", "type": "pet.created", "data": {}}).encode()
    mac = hmac.new(key, f"msg_1.{NOW}.".encode() + body, hashlib.sha256).digest()
    headers = {
        "webhook-id": "msg_1",
        "webhook-timestamp": str(NOW),
        "webhook-signature": "v1," + base64.b64encode(mac).decode(),
    }
    return body, headers


@pytest.mark.parametrize("secret", NOT_SECRETS)
def test_the_verifier_refuses_a_secret_that_is_none(secret):
    with pytest.raises(WebhookSecretError):
        WebhookVerifier(secret)


@pytest.mark.parametrize("secret", NOT_SECRETS)
def test_verify_webhook_refuses_it_before_reading_the_delivery(secret):
    body, headers = forged_with(b"")

    with pytest.raises(WebhookSecretError):
        verify_webhook(body, headers, secret, now=NOW)


def test_the_secret_error_is_not_a_verification_error():
    # A receiver answers 4xx to a bad delivery; an unset secret is its own fault, not the sender's.
    assert not issubclass(WebhookSecretError, WebhookVerificationError)


def test_a_verifier_made_once_verifies_each_delivery():
    verifier = WebhookVerifier(SECRET)
    body, headers = forged_with(base64.b64decode(SECRET.removeprefix("whsec_")))

    assert verifier.verify(body, headers, now=NOW)["id"] == "evt_forged"
    assert verify_webhook(body, headers, SECRET.removeprefix("whsec_"), now=NOW)["id"]
    with pytest.raises(WebhookVerificationError):
        verifier.verify(body.replace(b"forged", b"fooled"), headers, now=NOW)
