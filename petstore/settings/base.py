"""Django's own settings, which the other modules build on: the secret key and hosts, the apps
and their middleware, templates, static files, language and time."""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from petstore.settings.environment import env_bool, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent.parent

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

INSTALLED_APPS = [
    "apikeys.apps.AdminConfig",  # Django's admin, its sign-in limited (apikeys.signin)
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_otp",
    # django-otp's devices, under names staff read in the admin.
    "staff.apps.AuthenticatorsConfig",
    "staff.apps.RecoveryCodesConfig",
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
    # /v1 leaves here for API_MIDDLEWARE; the admin and the docs page go on.
    "petstore.api_branch.ApiBranch",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The second factor, asked of staff after the password (staff/).
    "django_otp.middleware.OTPMiddleware",
    "staff.middleware.SecondFactorMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

# The layers of an API request after ApiBranch, in order, before petstore.api_branch.call_view.
API_MIDDLEWARE = [
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
