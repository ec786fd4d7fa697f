"""Every change to an animal or a category, by any path (the API, the admin, a command, a
cascade), makes the tags of the answers showing them out of date (``petstore.conditional``)."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from pets.models import Category, Pet
from pets.selectors import CATEGORIES_VERSION, PETS_VERSION
from petstore.conditional import changed


@receiver([post_save, post_delete], sender=Pet)
def pet_changed(**_: Any) -> None:
    changed(PETS_VERSION)


@receiver([post_save, post_delete], sender=Category)
def category_changed(**_: Any) -> None:
    changed(CATEGORIES_VERSION)
