"""A field added to Pet as a newcomer adds one: its column (``pets_migrations``) and its place in
the API's shape of an animal, so in answers and in the events written from now on."""

from django.db import models
from rest_framework import serializers

from pets.models import Pet
from pets.serializers import PetSerializer, PetStatusChangeSerializer
from tests.clients.future.settings import ADDED_FIELD

Pet.add_to_class(
    ADDED_FIELD, models.CharField(max_length=64, blank=True, default="", db_default="")
)
# Declared on PetSerializer, as its subclasses would inherit it; before pets.selectors reads it.
for shape in (PetSerializer, PetStatusChangeSerializer):
    shape._declared_fields[ADDED_FIELD] = serializers.CharField(
        read_only=True, help_text="What its shelter calls it, if anything."
    )
