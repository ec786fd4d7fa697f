"""The service's settings with what a later 1.x may add: the quarter-hour window of
tests.apikeys.new_window, an event type (its row in events.types, put there before any module
reads the table), this app (a field on Pet) and an exception handler that answers an added code."""

from __future__ import annotations

from django.db import models

from events import examples, types
from petstore.scopes import Scope
from tests.apikeys.new_window.settings import *  # noqa: F403

ADDED_TYPE = "pet.renamed"
ADDED_CODE = "pet_unavailable"
ADDED_FIELD = "nickname"

types.EventType = models.TextChoices(  # type: ignore[misc, call-overload]
    "EventType",
    [
        *((kind.name, (kind.value, kind.label)) for kind in types.EventType),
        ("PET_RENAMED", (ADDED_TYPE, "An animal was renamed")),
    ],
)
types.AUDIENCE[ADDED_TYPE] = types.Audience(Scope.PETS_READ, True, "pets.serializers.PetSerializer")
types.EVENT_TYPES = tuple(types.EventType.values)
types.SHARED_TYPES = frozenset(kind for kind, seen in types.AUDIENCE.items() if seen.shared)
examples.EXAMPLE_DATA[ADDED_TYPE] = {**examples.EXAMPLE_DATA[types.EventType.PET_CREATED]}

INSTALLED_APPS = [*INSTALLED_APPS, "tests.clients.future"]  # noqa: F405
# The pets migrations, and the field's after them (pets_migrations/__init__.py).
MIGRATION_MODULES = {**MIGRATION_MODULES, "pets": "tests.clients.future.pets_migrations"}  # noqa: F405
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "EXCEPTION_HANDLER": "tests.clients.future.errors.exception_handler",
}
# A test database of its own, beside the suite's and the window's.
DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_future"}  # noqa: F405
