from __future__ import annotations

from django.db import models
from django.db.models.functions import Lower, Upper


class Category(models.Model):
    name = models.CharField(max_length=255)
    description = models.TextField(blank=True)

    class Meta:
        ordering = ("id",)
        verbose_name_plural = "categories"
        constraints = [
            models.UniqueConstraint(
                Lower("name"),
                name="category_name_unique_ci",
                violation_error_message="There is already a category with this name.",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class PetStatus(models.TextChoices):
    AVAILABLE = "available", "Available"
    PENDING = "pending", "Pending"
    SOLD = "sold", "Sold"


# The moves an animal's status may make, in one place for the order workflow and the admin:
# an adoption puts an animal on hold (pending), completes (sold) or falls through (available).
PET_STATUS_TRANSITIONS: dict[str, frozenset[str]] = {
    PetStatus.AVAILABLE: frozenset({PetStatus.PENDING}),
    PetStatus.PENDING: frozenset({PetStatus.AVAILABLE, PetStatus.SOLD}),
    PetStatus.SOLD: frozenset(),
}


def can_change_status(current: str, new: str) -> bool:
    return current == new or new in PET_STATUS_TRANSITIONS[current]


class Pet(models.Model):
    name = models.CharField(max_length=255)
    category = models.ForeignKey(Category, on_delete=models.PROTECT, related_name="pets")
    status = models.CharField(max_length=16, choices=PetStatus.choices, default=PetStatus.AVAILABLE)
    # Null, not "": the API shows an unknown breed as null, as it was before there was one.
    breed = models.CharField(max_length=100, null=True, blank=True)  # noqa: DJ001
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("id",)
        # listPets pages through one status, or a category, in id order: an index range scan,
        # however many pets. (Its name filter has a trigram index: migration 0003.)
        indexes = [
            models.Index(fields=("status", "id"), name="pet_status_id_idx"),
            models.Index(fields=("category", "id"), name="pet_category_id_idx"),
            # ?breed= (iexact: UPPER(breed) = UPPER(…)) in id order. Built concurrently: 0004.
            models.Index(Upper("breed"), "id", name="pet_breed_ci_id_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (#{self.pk})"
