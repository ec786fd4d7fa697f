"""The service's settings with a window added: the hour, whose row the table gains before any
module reads it, and this app, which gives Plan and Account its fields."""

from apikeys import windows

HOUR = windows.WindowSpec(
    "hour", 3600, "requests_per_hour", "custom_requests_per_hour", counts_304=False
)
windows.WINDOWS = (windows.WINDOWS[0], HOUR, *windows.WINDOWS[1:])

from petstore.settings import *  # noqa: E402, F403

INSTALLED_APPS = [*INSTALLED_APPS, "tests.apikeys.hour"]  # noqa: F405
# The apikeys migrations, and the hour's after them (apikeys_migrations/__init__.py).
MIGRATION_MODULES = {"apikeys": "tests.apikeys.hour.apikeys_migrations"}
# A test database of its own, beside the suite's.
DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_hour"}  # noqa: F405
