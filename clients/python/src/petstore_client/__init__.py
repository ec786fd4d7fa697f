"""The Pet Store API's SDK: the client generated from its OpenAPI document
(``petstore_client.generated``), and the layer that does a partner's chores
(the service's docs/design.md#sdks)."""

from .calls import Event
from .client import SERVERS, AsyncPetstore, Petstore, next_cursor
from .errors import (
    ConflictError,
    ForbiddenError,
    GoneError,
    IdempotencyKeyReusedError,
    NotFoundError,
    PetstoreError,
    RateLimitError,
    ServiceUnavailableError,
    UnauthorizedError,
    ValidationError,
)
from .transport import EtagCache, RateLimit, Retry, RetryInfo
from .webhooks import WebhookSecretError, WebhookVerificationError, WebhookVerifier, verify_webhook

__version__ = "1.1.0"

__all__ = [
    "SERVERS",
    "AsyncPetstore",
    "ConflictError",
    "EtagCache",
    "Event",
    "ForbiddenError",
    "GoneError",
    "IdempotencyKeyReusedError",
    "NotFoundError",
    "Petstore",
    "PetstoreError",
    "RateLimit",
    "RateLimitError",
    "Retry",
    "RetryInfo",
    "ServiceUnavailableError",
    "UnauthorizedError",
    "ValidationError",
    "WebhookSecretError",
    "WebhookVerificationError",
    "WebhookVerifier",
    "next_cursor",
    "verify_webhook",
]
