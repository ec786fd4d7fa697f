"""The one settings module: everything that varies between machines comes from the environment.

A fresh clone runs with no environment at all (SQLite, in-process cache, DEBUG on); production
sets DATABASE_URL, REDIS_URL, SECRET_KEY and DEBUG=0. The helpers below fail loudly on a value
they cannot read rather than guessing.
"""

from __future__ import annotations

import ipaddress
import logging
import os
from datetime import UTC, datetime
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {raw!r}")


def env_int(name: str, default: int, *, minimum: int = 0) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {raw!r}") from None
    if value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, not {value}")
    return value


def env_date(name: str, default: str) -> datetime:
    """A UTC day written as ``YYYY-MM-DD``: midnight at its start."""
    raw = os.environ.get(name) or default
    try:
        day = datetime.strptime(raw, "%Y-%m-%d")
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a date (YYYY-MM-DD), not {raw!r}") from None
    return day.replace(tzinfo=UTC)


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is required unless DEBUG is on. Locally, run management commands as "
            "`DEBUG=1 .venv/bin/python manage.py …` (the embedded set-up `make run` uses)."
        )
    # Development only: a fixed key so signed cursors survive a restart of `make run`.
    SECRET_KEY = "django-insecure-development-only-key-not-for-production"  # noqa: S105

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])

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

# How many reverse proxies in front of us append to X-Forwarded-For. 0: trust only REMOTE_ADDR.
PETSTORE_TRUSTED_PROXIES = env_int("PETSTORE_TRUSTED_PROXIES", 0)

# GET /metrics (petstore.metrics): for these addresses or networks, or with this bearer token.
PETSTORE_METRICS_ALLOW = [
    ipaddress.ip_network(network, strict=False)
    for network in env_list("PETSTORE_METRICS_ALLOW", ["127.0.0.1", "::1"])
]
PETSTORE_METRICS_TOKEN = env_str("PETSTORE_METRICS_TOKEN")
# Metrics read from the database at each scrape, by the apps that own them.
PETSTORE_METRICS_COLLECTORS = ["webhooks.metrics.WebhookCollector"]

# getPet is deprecated (RFC 9745) since a date that is history, and removed at its sunset
# (RFC 8594), which an operator may move (PETSTORE_GETPET_SUNSET) if clients need longer.
PETSTORE_GETPET_DEPRECATED_AT = datetime(2026, 1, 1, tzinfo=UTC)
PETSTORE_GETPET_SUNSET_AT = env_date("PETSTORE_GETPET_SUNSET", "2030-12-05")

# Browsers may call the API from these origins (comma-separated) with any key; none by default.
# Publishable keys add their own origins, per request (apikeys.cors).
CORS_ALLOWED_ORIGINS = env_list("PETSTORE_CORS_ORIGINS", [])
CORS_ALLOW_HEADERS = ["authorization", "content-type", "idempotency-key", "x-request-id"]
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
]

# Requests without a valid key are limited per client address: N/m (a minute) or N/d (a UTC day).
PETSTORE_ANONYMOUS_RATE = env_str("PETSTORE_ANONYMOUS_RATE", "60/m")
PETSTORE_MAX_BODY_BYTES = 64 * 1024
# Staff sign in with a second factor (staff/): always in production; `make run` (DEBUG) may
# do without, unless told otherwise.
PETSTORE_ADMIN_SECOND_FACTOR = env_bool("PETSTORE_ADMIN_SECOND_FACTOR", not DEBUG)
# A staff session ends after this many idle minutes: each admin request starts them again.
PETSTORE_ADMIN_IDLE_MINUTES = env_int("PETSTORE_ADMIN_IDLE_MINUTES", 30, minimum=1)
SESSION_COOKIE_AGE = PETSTORE_ADMIN_IDLE_MINUTES * 60
SESSION_SAVE_EVERY_REQUEST = True
# Sign-in attempts to the admin per client address and minute (N/m).
PETSTORE_ADMIN_LOGIN_RATE = env_str("PETSTORE_ADMIN_LOGIN_RATE", "10/m")
# The trail (audit) keeps its entries this many days; the design asks for a year at least.
PETSTORE_AUDIT_KEPT_DAYS = env_int("PETSTORE_AUDIT_KEPT_DAYS", 365, minimum=365)

INSTALLED_APPS = [
    "apikeys.apps.AdminConfig",  # Django's admin, its sign-in limited (apikeys.signin)
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "petstore",
    "apikeys",
    "pets",
    "store",
    "events",
    "webhooks",
    "audit",
    "staff",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "petstore.requestlog.RequestLogMiddleware",
    "petstore.prometheus.RequestMetricsMiddleware",
    # Which web pages may read /v1's answers: the operator's origins and a publishable key's.
    "apikeys.cors.CorsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "petstore.errors.ApiErrorMiddleware",
    # Django's middleware for browsers; petstore's own subclasses pass /v1 straight on.
    "petstore.admin_middleware.SessionMiddleware",
    "petstore.admin_middleware.CommonMiddleware",
    "petstore.admin_middleware.AuthenticationMiddleware",
    # The second factor, asked of staff after the password (staff/).
    "staff.middleware.OTPMiddleware",
    "staff.middleware.SecondFactorMiddleware",
    "petstore.admin_middleware.MessageMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Where an API request is admitted: key, limits, 429s, the limit's headers.
    "apikeys.admission.middleware.AdmissionMiddleware",
    "petstore.api_http.ApiHttpMiddleware",
]

ROOT_URLCONF = "petstore.urls"
WSGI_APPLICATION = "petstore.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 600),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A database that is down must answer 503 quickly, not hang a worker.
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].setdefault("connect_timeout", 3)
    # …and a runaway query must not hold one either.
    DATABASES["default"]["OPTIONS"].setdefault(
        "options", f"-c statement_timeout={env_int('DATABASE_STATEMENT_TIMEOUT_MS', 5000)}"
    )
    if env_bool("DATABASE_PREPARED_STATEMENTS", True):
        # Values sent apart from the SQL, and a statement run a few times prepared once per
        # connection: PostgreSQL stops parsing and planning the same few queries on every
        # request. Django turns both off by default for connection poolers in transaction mode
        # (PgBouncer before 1.21), which this deployment does not use (persistent
        # connections); set DATABASE_PREPARED_STATEMENTS=0 behind one.
        DATABASES["default"]["OPTIONS"].setdefault("server_side_binding", True)
        DATABASES["default"]["OPTIONS"].setdefault("prepare_threshold", 5)
        # …but planned for each request's own values: a generic plan for "status = $1" cannot
        # tell a status one pet in a thousand has from a common one, and would walk the whole
        # table for the rare one (seen at a million pets: 2.5 times slower than at a thousand).
        DATABASES["default"]["OPTIONS"]["options"] += " -c plan_cache_mode=force_custom_plan"

    if pool_size := env_int("DATABASE_POOL_SIZE", 0):
        # The webhook workers' greenlets (deploy.workers) would each open a connection, a
        # server process apiece; they borrow one from a pool for each step instead.
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": 1,
            "max_size": pool_size,
            "timeout": 10,
        }

elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded database must keep PostgreSQL's promises under `make run`'s threads: of
    # concurrent orders for one animal, one wins and the rest get 409, never "database is
    # locked". IMMEDIATE takes the write lock when a transaction begins, so a writer waits its
    # turn (up to the busy timeout) instead of failing to upgrade a read lock mid-transaction;
    # WAL lets readers go on while one writes.
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The shared Redis of rate limits, usage tallies and the key generation, reached through the one
# client of petstore.redis; unset (embedded mode), they live in the serving process.
REDIS_URL = env_str("REDIS_URL")
REDIS_KEY_PREFIX = "petstore:"
# Short timeouts: while Redis is unreachable, limits fall back to process memory rather than
# holding the request.
REDIS_TIMEOUT_SECONDS = 0.5

# Webhooks (DESIGN §10). Outside development, endpoints must be https:// to public addresses.
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
# How long a worker holds a delivery before another may take it: more than a try can last.
PETSTORE_WEBHOOK_LEASE_SECONDS = env_int("PETSTORE_WEBHOOK_LEASE_SECONDS", 60, minimum=1)

# The task queue (petstore.celery): the shared Redis, or without it (make run) a folder. The
# folder transport ignores the host; naming one spares `make run` kombu's warning of its absence.
CELERY_BROKER_URL = REDIS_URL or "filesystem://localhost//"
if not REDIS_URL:
    _queue = env_str("PETSTORE_QUEUE_DIR") or str(BASE_DIR / ".queue")
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": _queue,
        "data_folder_out": _queue,
        # Its exchange table, else a `control` folder in whatever directory the worker runs in.
        "control_folder": f"{_queue}/control",
    }
CELERY_TASK_IGNORE_RESULT = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# Django's Redis backend would load redis-py (README, "Choices worth knowing"): nothing is cached
# through Django's cache framework but django-ratelimit's counters (the admin's sign-in limit),
# shared through the one client of petstore.redis (in process memory without Redis, like the
# API's limits).
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "ratelimit": {
        "BACKEND": "petstore.cache.RedisCache",
        "KEY_PREFIX": f"{REDIS_KEY_PREFIX}cache",
    },
}
RATELIMIT_USE_CACHE = "ratelimit"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# The docs page and the admin need their static files under gunicorn too; WhiteNoise serves them
# straight from the installed apps, so no collectstatic step is needed to start. Set STATIC_ROOT
# only to run collectstatic for a CDN or a front web server.
STATIC_ROOT = env_str("STATIC_ROOT") or None
WHITENOISE_USE_FINDERS = True

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
    "VERSION": "1.0.0",
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
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "petstore.openapi.add_common_responses",
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

# No format writes a thread or a process name, so log records need not collect them (the
# logging HOWTO's "Optimization" switches).
logging.logThreads = False
logging.logMultiprocessing = False

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain"},
        "requests": {"class": "petstore.requestlog.JsonLineHandler"},
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.request": {"level": "ERROR"},
        # One JSON line per request; REQUEST_LOG=0 turns it off.
        "petstore.requests": {
            "handlers": ["requests"],
            "propagate": False,
            "level": "INFO" if env_bool("REQUEST_LOG", True) else "WARNING",
        },
    },
}

# Production hardening; `manage.py check --deploy` is clean with DEBUG off.
SECURE_CONTENT_TYPE_NOSNIFF = True
# Admin cookies over HTTPS only; SECURE_COOKIES=0 only for plain-HTTP test instances.
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
# TLS usually ends at the load balancer, which redirects; SECURE_SSL_REDIRECT=1 if it does not.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
if PETSTORE_TRUSTED_PROXIES:
    # Only a proxy we were told about may tell us the request was HTTPS.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

if env_bool("PETSTORE_OPEN_FOR_BENCHMARK", False):
    # `make bench` only: the same stack with keys and limits switched off, to price them.
    MIDDLEWARE.remove("apikeys.admission.middleware.AdmissionMiddleware")
    REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"] = []
    REST_FRAMEWORK["DEFAULT_PERMISSION_CLASSES"] = ["rest_framework.permissions.AllowAny"]
