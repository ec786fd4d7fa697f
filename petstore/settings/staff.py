"""The staff's side: how they sign in to the admin, how long their sessions last, and how long
the trail of their work is kept."""

from __future__ import annotations

from petstore.settings.base import DEBUG
from petstore.settings.environment import env_bool, env_int, env_str

# Staff sign in with a second factor (staff/): always in production; `make run` (DEBUG) may
# do without, unless told otherwise.
PETSTORE_ADMIN_SECOND_FACTOR = env_bool("PETSTORE_ADMIN_SECOND_FACTOR", not DEBUG)
# The admin shows no device's key, QR code or recovery codes: only their member ever sees them.
OTP_ADMIN_HIDE_SENSITIVE_DATA = True
# A staff session ends after this many idle minutes: each admin request starts them again.
PETSTORE_ADMIN_IDLE_MINUTES = env_int("PETSTORE_ADMIN_IDLE_MINUTES", 30, minimum=1)
SESSION_COOKIE_AGE = PETSTORE_ADMIN_IDLE_MINUTES * 60
SESSION_SAVE_EVERY_REQUEST = True
# Sign-in attempts to the admin per client address and minute (N/m).
PETSTORE_ADMIN_LOGIN_RATE = env_str("PETSTORE_ADMIN_LOGIN_RATE", "10/m")
# The trail (audit) keeps its entries this many days: a year at least (docs/design.md#staff).
PETSTORE_AUDIT_KEPT_DAYS = env_int("PETSTORE_AUDIT_KEPT_DAYS", 365, minimum=365)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
