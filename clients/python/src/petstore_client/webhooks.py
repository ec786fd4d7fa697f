"""Standard Webhooks' verification, for the deliveries of the service's webhook endpoints."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from collections.abc import Mapping
from typing import Any


class WebhookVerificationError(Exception):
    pass


def verify_webhook(
    body: bytes | str,
    headers: Mapping[str, str],
    secret: str,
    *,
    tolerance_seconds: float = 300,
    now: float | None = None,
) -> dict[str, Any]:
    """The event of a delivery, once its ``webhook-signature`` is found to be the endpoint's
    secret's (HMAC-SHA256 of ``id.timestamp.body``). Pass the body exactly as received.
    Raises ``WebhookVerificationError`` otherwise. Deliveries come at least once: deduplicate
    by ``webhook-id``."""
    found = {name.lower(): value for name, value in headers.items()}
    webhook_id, timestamp, signatures = (
        found.get(f"webhook-{name}", "") for name in ("id", "timestamp", "signature")
    )
    if not (webhook_id and timestamp and signatures):
        raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature")
    at = time.time() if now is None else now
    if not timestamp.isdigit() or abs(at - int(timestamp)) > tolerance_seconds:
        raise WebhookVerificationError("webhook-timestamp is too far from now")
    payload = body.encode() if isinstance(body, str) else body
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{webhook_id}.{timestamp}.".encode() + payload
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    # During a secret's rotation the service signs with both: any one of them will do.
    for signature in signatures.split():
        version, _, value = signature.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            event: dict[str, Any] = json.loads(payload)
            return event
    raise WebhookVerificationError("no signature matches the secret")
