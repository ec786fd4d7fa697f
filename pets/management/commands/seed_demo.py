from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from pets import services
from pets.models import Category, Pet, PetStatus

CATEGORIES = {
    "Dog": "Dogs of every size, from puppies to seniors.",
    "Cat": "Cats and kittens, indoor and outdoor.",
    "Rabbit": "Rabbits, used to a hutch or a house.",
    "Bird": "Budgies, canaries and other birds.",
}

ANIMALS = [
    ("Rex", "Dog", "Beagle", PetStatus.AVAILABLE),
    ("Bella", "Dog", "Labrador", PetStatus.AVAILABLE),
    ("Max", "Dog", "Beagle", PetStatus.PENDING),
    ("Luna", "Cat", "Siamese", PetStatus.AVAILABLE),
    ("Milo", "Cat", None, PetStatus.AVAILABLE),
    ("Cleo", "Cat", "Persian", PetStatus.SOLD),
    ("Thumper", "Rabbit", "Dutch", PetStatus.AVAILABLE),
    ("Clover", "Rabbit", None, PetStatus.PENDING),
    ("Kiwi", "Bird", "Budgerigar", PetStatus.AVAILABLE),
    ("Sunny", "Bird", "Canary", PetStatus.AVAILABLE),
    ("Pip", "Bird", None, PetStatus.SOLD),
    ("Biscuit", "Dog", None, PetStatus.AVAILABLE),
]


class Command(BaseCommand):
    help = "Add the demo categories and animals; running it again adds nothing."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        # Through the services, as the API and the admin add them: each with its event.
        categories = {}
        for name, description in CATEGORIES.items():
            categories[name] = Category.objects.filter(name=name).first() or services.category_add(
                Category(name=name, description=description)
            )
        added = 0
        for name, category, breed, status in ANIMALS:
            if not Pet.objects.filter(name=name, category=categories[category]).exists():
                services.pet_create(
                    name=name, category_id=categories[category].pk, breed=breed, status=status
                )
                added += 1
        self.stdout.write(
            f"Demo data: {len(categories)} categories, {added} animals added "
            f"({Pet.objects.count()} in all)."
        )
