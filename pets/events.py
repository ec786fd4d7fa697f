"""The events the animals and their categories write, each by one function here, in the
change's transaction (``events.services.event_record``), but a new animal's ``pet.created``,
written by the statement that adds it (``pets.insert``): every account's, with ``pets:read``.
Each ``data`` has the shape of the serializer the event table names (``events.types``)."""

from __future__ import annotations

from events.models import Event
from events.services import event_record
from events.types import EventType
from pets.models import Category, Pet
from pets.selectors import PET
from pets.serializers import CategorySerializer


def pet_status_changed(pet: Pet, previous: str) -> Event:
    # PetStatusChangeSerializer's shape, from the prepared Pet the API itself shows.
    return event_record(EventType.PET_STATUS_CHANGED, PET.of(pet) | {"previousStatus": previous})


def category_created(category: Category) -> Event:
    return event_record(EventType.CATEGORY_CREATED, dict(CategorySerializer(category).data))
