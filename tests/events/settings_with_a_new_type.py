"""The service's settings with one more event type in the table, put there before any model is
read, as a newcomer's row would be: for checking that a new type needs no migration."""

from __future__ import annotations

from django.db import models

from events import types
from petstore.scopes import Scope
from petstore.settings import *  # noqa: F403

NEW_TYPE = "test_only.row_added"  # tests.events.test_types_table checks for it

types.EventType = models.TextChoices(  # type: ignore[misc, call-overload]
    "EventType",
    [
        *((kind.name, (kind.value, kind.label)) for kind in types.EventType),
        ("TEST_ONLY_ROW_ADDED", (NEW_TYPE, "A row only the tests add")),
    ],
)
types.AUDIENCE[NEW_TYPE] = types.Audience(
    Scope.PETS_READ, True, "pets.serializers.CategorySerializer"
)
types.EVENT_TYPES = tuple(types.EventType.values)
