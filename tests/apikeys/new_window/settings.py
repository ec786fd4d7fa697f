"""The service's settings with a window added: a quarter of an hour, whose row the table gains
before any module reads it, and this app, which gives Plan and Account its fields."""

from apikeys import windows

QUARTER = windows.WindowSpec(
    "quarter_hour",
    900,
    "requests_per_quarter_hour",
    "custom_requests_per_quarter_hour",
    counts_304=False,
)
windows.WINDOWS = tuple(sorted((*windows.WINDOWS, QUARTER), key=lambda w: w.seconds))

from petstore.settings import *  # noqa: E402, F403

INSTALLED_APPS = [*INSTALLED_APPS, "tests.apikeys.new_window"]  # noqa: F405
# The apikeys migrations, and the window's after them (apikeys_migrations/__init__.py).
MIGRATION_MODULES = {"apikeys": "tests.apikeys.new_window.apikeys_migrations"}
# A test database of its own, beside the suite's.
DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_window"}  # noqa: F405
