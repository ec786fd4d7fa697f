from __future__ import annotations

from rest_framework import serializers

from petstore.pagination import PageQuery
from petstore.serializers import (
    Int64Field,
    QuerySerializer,
    StrictChoiceField,
    StrictIntegerField,
    StrictSerializer,
)
from store.models import OrderStatus


class NewOrderSerializer(StrictSerializer):
    """What a client sends to adopt an animal."""

    petId = StrictIntegerField(min_value=1, help_text="The ID of the animal to adopt.")


class OrderSerializer(serializers.Serializer):
    """An adoption order: the template's Order, plus its status."""

    id = Int64Field(read_only=True, help_text="Unique order identifier.")
    petId = Int64Field(source="pet_id", read_only=True, help_text="The animal adopted.")
    quantity = serializers.IntegerField(read_only=True, help_text="Always 1: one animal.")
    shipDate = serializers.DateTimeField(
        source="ship_date",
        read_only=True,
        allow_null=True,
        help_text="When the animal is handed over; null until then.",
    )
    complete = serializers.BooleanField(read_only=True, help_text="True once delivered.")
    status = serializers.ChoiceField(choices=OrderStatus.choices, read_only=True)


class OrderListFilter(QuerySerializer):
    status = StrictChoiceField(
        choices=OrderStatus.choices, required=False, help_text="Only orders with this status."
    )


class OrderListQuery(OrderListFilter, PageQuery):
    """Everything a listing of orders reads from its query string."""
