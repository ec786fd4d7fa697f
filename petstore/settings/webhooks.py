"""Webhooks (docs/design.md#webhooks): where endpoints may be, how deliveries are tried and
retried, and when an endpoint that keeps failing is paused."""

from __future__ import annotations

from petstore.settings.base import DEBUG
from petstore.settings.environment import env_bool, env_int, env_list

# Outside development, endpoints must be https:// to public addresses.
PETSTORE_WEBHOOK_ALLOW_PRIVATE = DEBUG or env_bool("PETSTORE_WEBHOOK_ALLOW_PRIVATE", False)
# The waits between a delivery's tries; past the last, it has failed.
PETSTORE_WEBHOOK_RETRY_SECONDS = [
    int(wait)
    for wait in env_list(
        "PETSTORE_WEBHOOK_RETRY_SECONDS",
        ["5", "300", "1800", "7200", "18000", "36000", "50400", "72000", "86400"],
    )
]
# How long a receiver has to accept the connection, and then to answer a delivery.
PETSTORE_WEBHOOK_CONNECT_TIMEOUT_SECONDS = env_int(
    "PETSTORE_WEBHOOK_CONNECT_TIMEOUT_SECONDS", 5, minimum=1
)
PETSTORE_WEBHOOK_TIMEOUT_SECONDS = env_int("PETSTORE_WEBHOOK_TIMEOUT_SECONDS", 15, minimum=1)
# Attempts in flight to one endpoint at most: a slow receiver holds no more of the workers.
PETSTORE_WEBHOOK_ENDPOINT_CONCURRENCY = env_int(
    "PETSTORE_WEBHOOK_ENDPOINT_CONCURRENCY", 2, minimum=1
)
# The circuit breaker: after this many failed attempts in a row an endpoint is paused, first
# for PAUSE_SECONDS, twice as long after each failed trial, at most MAX_PAUSE_SECONDS.
PETSTORE_WEBHOOK_PAUSE_AFTER = env_int("PETSTORE_WEBHOOK_PAUSE_AFTER", 5, minimum=1)
PETSTORE_WEBHOOK_PAUSE_SECONDS = env_int("PETSTORE_WEBHOOK_PAUSE_SECONDS", 30, minimum=1)
PETSTORE_WEBHOOK_MAX_PAUSE_SECONDS = env_int("PETSTORE_WEBHOOK_MAX_PAUSE_SECONDS", 1800, minimum=1)
# A paused endpoint spends no delivery's schedule, so one whose every attempt has failed this
# long is disabled instead (Stripe and Svix give a dead receiver days too), and what it is owed
# failed, for recover to send once it is fixed; fewer days than events are kept (30), or what it
# is owed would be purged before it is disabled.
PETSTORE_WEBHOOK_DISABLE_AFTER_DAYS = env_int(
    "PETSTORE_WEBHOOK_DISABLE_AFTER_DAYS", 3, minimum=1, maximum=29
)
# How long a worker holds a delivery before another may take it: more than a try can last.
PETSTORE_WEBHOOK_LEASE_SECONDS = env_int("PETSTORE_WEBHOOK_LEASE_SECONDS", 60, minimum=1)
