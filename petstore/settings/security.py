"""Production hardening, and which proxies are believed: `manage.py check --deploy` is clean
with DEBUG off."""

from __future__ import annotations

from petstore.settings.base import DEBUG
from petstore.settings.environment import env_bool, env_int

# How many reverse proxies in front of us append to X-Forwarded-For. 0: trust only REMOTE_ADDR.
PETSTORE_TRUSTED_PROXIES = env_int("PETSTORE_TRUSTED_PROXIES", 0)

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
