"""Standard Webhooks' verification, for the deliveries of the service's webhook endpoints."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from collections.abc import Mapping
from typing import Any

# Seconds since 1970 in ASCII digits: twelve reach the year 33658, and int() takes them all.
TIMESTAMP = re.compile(r"[0-9]{1,12}")


class WebhookVerificationError(Exception):
    """The delivery is not the service's: answer it 4xx."""


class WebhookSecretError(ValueError):
    """The secret given is none (unset, empty, not base64): the receiver's configuration is
    wrong, not the delivery. Not a ``WebhookVerificationError``, so that it is not answered as
    a bad delivery."""


class WebhookVerifier:
    """Verifies deliveries with one endpoint's secret (``whsec_…`` as the service shows it, or
    its base64 alone), checked once here: ``WebhookSecretError`` for one that is none."""

    def __init__(self, secret: str) -> None:
        self._key = _key(secret)

    def verify(
        self,
        body: bytes | str,
        headers: Mapping[str, str],
        *,
        tolerance_seconds: float = 300,
        now: float | None = None,
    ) -> dict[str, Any]:
        """The event of a delivery, once its ``webhook-signature`` is found to be the
        secret's (HMAC-SHA256 of ``id.timestamp.body``). Pass the body exactly as received.
        Raises ``WebhookVerificationError`` otherwise, whatever the headers or the body hold.
        Deliveries come at least once: deduplicate by ``webhook-id``."""
        webhook_id, timestamp, signatures = _webhook_headers(headers)
        at = time.time() if now is None else now
        if not TIMESTAMP.fullmatch(timestamp) or abs(at - int(timestamp)) > tolerance_seconds:
            raise WebhookVerificationError("webhook-timestamp is too far from now")
        payload = _bytes(body)
        signed = f"{webhook_id}.{timestamp}.".encode(errors="surrogatepass") + payload
        expected = base64.b64encode(hmac.new(self._key, signed, hashlib.sha256).digest()).decode()
        # During a secret's rotation the service signs with several: any one of them will do.
        for signature in signatures.split():
            version, _, value = signature.partition(",")
            if version == "v1" and value.isascii() and hmac.compare_digest(value, expected):
                return _event(payload)
        raise WebhookVerificationError("no signature matches the secret")


def verify_webhook(
    body: bytes | str,
    headers: Mapping[str, str],
    secret: str,
    *,
    tolerance_seconds: float = 300,
    now: float | None = None,
) -> dict[str, Any]:
    """``WebhookVerifier(secret).verify(…)``: the event of a delivery, or
    ``WebhookVerificationError``; ``WebhookSecretError`` first for a secret that is none."""
    verifier = WebhookVerifier(secret)
    return verifier.verify(body, headers, tolerance_seconds=tolerance_seconds, now=now)


def _key(secret: object) -> bytes:
    """The secret's key: strict base64 of at least one byte after an optional ``whsec_``,
    since an empty key would verify anyone's signature."""
    if not isinstance(secret, str):
        raise WebhookSecretError("the webhook secret is not a string")
    try:
        key = base64.b64decode(secret.removeprefix("whsec_"), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise WebhookSecretError("the webhook secret is not base64 (whsec_…)") from exc
    if not key:
        raise WebhookSecretError("the webhook secret is empty: is its variable set?")
    return key


def _webhook_headers(headers: Mapping[str, str]) -> tuple[str, str, str]:
    """``webhook-id``, ``webhook-timestamp`` and ``webhook-signature``, each a string."""
    try:
        found = {name.lower(): value for name, value in headers.items() if isinstance(name, str)}
    except (AttributeError, TypeError, ValueError) as exc:
        raise WebhookVerificationError("the headers are not a mapping of names to values") from exc
    webhook_id, timestamp, signatures = (
        found.get(f"webhook-{name}") for name in ("id", "timestamp", "signature")
    )
    if not (
        isinstance(webhook_id, str)
        and isinstance(timestamp, str)
        and isinstance(signatures, str)
        and webhook_id
        and timestamp
        and signatures
    ):
        raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature")
    return webhook_id, timestamp, signatures


def _bytes(body: bytes | str) -> bytes:
    if isinstance(body, str):
        try:
            return body.encode()
        except UnicodeEncodeError as exc:
            raise WebhookVerificationError("the body is not text as received") from exc
    if isinstance(body, bytes | bytearray | memoryview):
        return bytes(body)
    raise WebhookVerificationError("the body is neither bytes nor text")


def _event(payload: bytes) -> dict[str, Any]:
    try:
        event = json.loads(payload)
    except (ValueError, RecursionError) as exc:  # not UTF-8, not JSON, or nested past reading
        raise WebhookVerificationError("the body is not JSON") from exc
    if not isinstance(event, dict):
        raise WebhookVerificationError("the body is not an event")
    return event
