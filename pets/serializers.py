from __future__ import annotations

from typing import Any

from rest_framework import serializers

from pets.models import Category, PetStatus
from petstore.pagination import PageQuery
from petstore.serializers import (
    IdListField,
    Int64Field,
    QueryCharField,
    QuerySerializer,
    StrictCharField,
    StrictChoiceField,
    StrictIntegerField,
    StrictSerializer,
)

MAX_CATEGORY_IDS = 10
# As many as a page holds, so that a page of orders finds its animals in one call.
MAX_PET_IDS = 100


def no_category(category_id: int) -> str:
    return f"There is no category {category_id}."


class NewPetSerializer(StrictSerializer):
    """What a client sends to add an animal."""

    name = StrictCharField(min_length=1, max_length=255, help_text="The animal's name.")
    categoryId = StrictIntegerField(
        source="category_id",
        min_value=1,
        help_text="The ID of the category this animal belongs to.",
    )
    # No ``default`` in the document: generators make a defaulted property required
    # (openapi-typescript 7), and clients would have to send it; the service fills it in.
    status = StrictChoiceField(
        choices=PetStatus.choices,
        required=False,
        help_text="Availability of the animal; `available` when omitted.",
    )
    breed = StrictCharField(
        min_length=1,
        max_length=100,
        required=False,
        allow_null=True,
        help_text="The animal's breed (e.g. Beagle); none when omitted or null.",
    )

    def to_internal_value(self, data: Any) -> Any:
        try:
            return super().to_internal_value(data)
        except serializers.ValidationError as exc:
            # Whether the category exists is found out by the INSERT itself (pets.services
            # pet_create), for a body valid otherwise; one with other mistakes has it checked
            # here, so that the answer names every mistake at once, in the fields' order.
            errors = exc.detail
            if not isinstance(errors, dict) or "categoryId" in errors:
                raise
            category_id = self._category_id(data)
            if category_id is None or Category.objects.filter(pk=category_id).exists():
                raise
            named: dict[str, Any] = {**errors, "categoryId": [no_category(category_id)]}
            declared = [str(name) for name in self.fields if name in named]
            ordered = {name: named[name] for name in [*declared, *named]}
            raise serializers.ValidationError(ordered) from None

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        return {"status": PetStatus.AVAILABLE, **attrs}

    def _category_id(self, data: Any) -> int | None:
        if not isinstance(data, dict) or "categoryId" not in data:
            return None
        return self.fields["categoryId"].run_validation(data["categoryId"])


class PetSerializer(serializers.Serializer):
    """An animal available for adoption, or once was."""

    id = Int64Field(read_only=True, help_text="Unique identifier assigned on creation.")
    name = serializers.CharField(read_only=True, help_text="The animal's name.")
    categoryId = Int64Field(
        source="category_id", read_only=True, help_text="The animal's category."
    )
    status = serializers.ChoiceField(choices=PetStatus.choices, read_only=True)
    breed = serializers.CharField(
        read_only=True, allow_null=True, help_text="The animal's breed; null when unknown."
    )


class PetListFilter(QuerySerializer):
    """The listing's filters, each field's ``source`` the ORM lookup it stands for: how
    pets.selectors narrows the animals, whichever way it reads them."""

    id = IdListField(
        source="pk__in",
        max_items=MAX_PET_IDS,
        required=False,
        help_text="Only this animal, or these (a comma-separated list of up to "
        f"{MAX_PET_IDS}): how to fetch one animal. An ID of no animal matches nothing.",
    )
    status = StrictChoiceField(
        choices=PetStatus.choices, required=False, help_text="Only animals with this status."
    )
    categoryId = IdListField(
        source="category_id__in",
        max_items=MAX_CATEGORY_IDS,
        required=False,
        help_text="Only animals in this category, or in any of these (a comma-separated list "
        f"of up to {MAX_CATEGORY_IDS}). An ID of no category matches nothing.",
    )
    name = QueryCharField(
        source="name__icontains",
        min_length=1,
        max_length=100,
        required=False,
        help_text="Only animals whose name contains this text, ignoring case.",
    )
    breed = QueryCharField(
        source="breed__iexact",
        min_length=1,
        max_length=100,
        required=False,
        help_text="Only animals of this breed, ignoring case.",
    )


class PetListQuery(PetListFilter, PageQuery):
    """Everything a listing of animals reads from its query string."""


class CategorySerializer(serializers.Serializer):
    """A kind of animal (Dog, Cat, Rabbit…)."""

    id = Int64Field(read_only=True, help_text="Unique identifier.")
    name = serializers.CharField(read_only=True, help_text="The category name.")
    description = serializers.CharField(read_only=True, help_text="A short description.")


class NewCategorySerializer(StrictSerializer):
    """What a client sends to add a category."""

    name = StrictCharField(
        min_length=1, max_length=255, help_text="The category name (e.g. Dog, Cat, Rabbit)."
    )
    description = StrictCharField(
        required=False,
        allow_blank=True,
        max_length=2000,
        help_text="A short description of the category; empty when omitted.",
    )


class PetStatusChangeSerializer(PetSerializer):
    """An animal whose status has just changed, with the status it had before."""

    previousStatus = serializers.ChoiceField(
        source="previous_status",
        choices=PetStatus.choices,
        read_only=True,
        help_text="The status it had before.",
    )
