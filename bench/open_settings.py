"""The settings of `make bench`'s open stack: the service with keys and limits switched off, to
price them (``DJANGO_SETTINGS_MODULE=bench.open_settings``). They serve only the benchmark's own
database, so that no deployment can run open: the service's settings refuse any switch.
"""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured

from bench.environment import BENCH_DB_PREFIX
from petstore.settings import *  # noqa: F403
from petstore.settings import API_MIDDLEWARE, DATABASES, REST_FRAMEWORK

if not str(DATABASES["default"]["NAME"]).startswith(BENCH_DB_PREFIX):
    raise ImproperlyConfigured(
        f"bench.open_settings serve only the benchmark's database ({BENCH_DB_PREFIX}…), "
        f"not {DATABASES['default']['NAME']!r}: the open stack is for `make bench` alone."
    )

API_MIDDLEWARE.remove("apikeys.admission.middleware.AdmissionMiddleware")
REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"] = []
REST_FRAMEWORK["DEFAULT_PERMISSION_CLASSES"] = ["rest_framework.permissions.AllowAny"]
