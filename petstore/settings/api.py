"""The API: where it is served, what browsers may read of it, its limits for unknown callers, and
the settings of DRF and of the OpenAPI document (drf-spectacular)."""

from __future__ import annotations

import tomllib
from datetime import UTC, datetime
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from petstore.settings.environment import env_date, env_list, env_str

# The API's version is the project's (pyproject.toml), the one place a release sets it:
# `make clients` stamps the SDKs with it, and the document's info.version is it.
with (Path(__file__).resolve().parents[2] / "pyproject.toml").open("rb") as _file:
    PETSTORE_API_VERSION: str = tomllib.load(_file)["project"]["version"]

PETSTORE_ENVIRONMENT = env_str("PETSTORE_ENVIRONMENT", "production")
if PETSTORE_ENVIRONMENT not in {"production", "staging"}:
    raise ImproperlyConfigured("PETSTORE_ENVIRONMENT must be 'production' or 'staging'")
PETSTORE_BASE_URL = env_str("PETSTORE_BASE_URL", "https://petstore.example.com/v1")
PETSTORE_STAGING_BASE_URL = env_str(
    "PETSTORE_STAGING_BASE_URL", "https://staging.petstore.example.com/v1"
)
for _name, _url in (
    ("PETSTORE_BASE_URL", PETSTORE_BASE_URL),
    ("PETSTORE_STAGING_BASE_URL", PETSTORE_STAGING_BASE_URL),
):
    if not _url.rstrip("/").endswith("/v1"):
        raise ImproperlyConfigured(f"{_name} must end with /v1, not {_url!r}")

# getPet is deprecated (RFC 9745) since a date that is history, and removed at its sunset
# (RFC 8594), which an operator may move (PETSTORE_GETPET_SUNSET) if clients need longer.
PETSTORE_GETPET_DEPRECATED_AT = datetime(2026, 1, 1, tzinfo=UTC)
PETSTORE_GETPET_SUNSET_AT = env_date("PETSTORE_GETPET_SUNSET", "2030-12-05")

# Browsers may call the API from these origins (comma-separated) with any key; none by default.
# Publishable keys add their own origins, per request (apikeys.cors).
CORS_ALLOWED_ORIGINS = env_list("PETSTORE_CORS_ORIGINS", [])
CORS_ALLOW_HEADERS = [
    "authorization",
    "content-type",
    "idempotency-key",
    "if-none-match",
    "x-request-id",
]
CORS_EXPOSE_HEADERS = [
    "Link",
    "Location",
    "Retry-After",
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "RateLimit",
    "RateLimit-Policy",
    "X-Request-ID",
    "Idempotent-Replayed",
    "Deprecation",
    "Sunset",
    "ETag",
]

# Requests without a valid key are limited per client address: N/m (a minute) or N/d (a UTC day).
PETSTORE_ANONYMOUS_RATE = env_str("PETSTORE_ANONYMOUS_RATE", "60/m")
PETSTORE_MAX_BODY_BYTES = 64 * 1024
# The API's own bodies are checked against PETSTORE_MAX_BODY_BYTES by its JSON parser; this
# bounds everything else Django reads (admin forms).
DATA_UPLOAD_MAX_MEMORY_SIZE = PETSTORE_MAX_BODY_BYTES

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["apikeys.authentication.BearerKeyAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["apikeys.scopes.HasScope"],
    "DEFAULT_RENDERER_CLASSES": ["petstore.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["petstore.parsers.StrictJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "apikeys.openapi.ScopedAutoSchema",
    "EXCEPTION_HANDLER": "petstore.errors.exception_handler",
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_VERSIONING_CLASS": None,
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "petstore.negotiation.JsonOnlyNegotiation",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Pet Store API",
    "DESCRIPTION": (
        "Browse and manage animals available for adoption. Every operation takes an API key as "
        "a bearer token, needs the scope it names (publishable keys, `petstore_pub_…`, are "
        "read-only and bound to web origins) and is rate limited per plan; every response "
        "reports the limit in `X-RateLimit-*` headers and in the `RateLimit-Policy` and "
        "`RateLimit` fields of draft-ietf-httpapi-ratelimit-headers-11."
    ),
    "VERSION": PETSTORE_API_VERSION,
    "SERVERS": [
        {"url": PETSTORE_BASE_URL.rstrip("/"), "description": "Production"},
        {"url": PETSTORE_STAGING_BASE_URL.rstrip("/"), "description": "Staging"},
    ],
    # Paths are relative to the servers above, which already end in /v1.
    "SCHEMA_PATH_PREFIX": r"/v1",
    "SCHEMA_PATH_PREFIX_TRIM": True,
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PUBLIC": True,
    # The schema is public: a key sent along is neither needed nor checked.
    "SERVE_AUTHENTICATION": [],
    "COMPONENT_SPLIT_REQUEST": False,
    "ENUM_NAME_OVERRIDES": {
        "PetStatus": "pets.models.PetStatus",
        "EventType": "events.types.EventType",
        "OrderStatus": "store.models.OrderStatus",
        "EndpointState": "webhooks.models.EndpointState",
        "DeliveryState": "webhooks.models.DeliveryState",
        "PlanCode": "apikeys.models.accounts.PlanCode",
        "WindowName": "apikeys.serializers.WINDOW_NAMES",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "events.openapi.inline_event_types",
        "petstore.openapi.add_common_responses",
        "petstore.openapi.mark_closed_enums",
        "petstore.openapi_added.mark_added_fields",
        "petstore.openapi.list_this_server_first",
    ],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "TAGS": [
        {"name": "animals", "description": "Animals available for adoption."},
        {"name": "categories", "description": "Kinds of animal."},
        {"name": "orders", "description": "Adoption orders of the calling account."},
        {"name": "rate limits", "description": "The calling key's limits, read for free."},
        {"name": "usage", "description": "The calling account's requests over time."},
        {"name": "events", "description": "What happened, as a feed any client can follow."},
        {"name": "webhooks", "description": "Events posted to the account's URLs, signed."},
    ],
}

if env_str("PETSTORE_OPEN_FOR_BENCHMARK"):
    # The API is never opened by a variable: `make bench` serves its open stack with settings of
    # its own (bench.open_settings), from its own database.
    raise ImproperlyConfigured(
        "PETSTORE_OPEN_FOR_BENCHMARK is refused: these settings always check keys and limits. "
        "The benchmark's open stack runs with DJANGO_SETTINGS_MODULE=bench.open_settings, "
        "against the benchmark's own database only."
    )
