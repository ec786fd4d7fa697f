from __future__ import annotations

from typing import Any, cast

from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from apikeys.authentication import caller_key
from petstore import conditional, pagination
from petstore.callers import Caller
from petstore.idempotency import IDEMPOTENCY_KEY_PARAMETER, idempotent
from petstore.openapi import error_responses, response_headers
from petstore.pagination import KeysetPagination
from petstore.parsers import json_object
from petstore.renderers import JsonAnswer
from petstore.scopes import Scope
from petstore.serializers import PATH_ID_SCHEMA
from petstore.viewsets import ConditionalViewSet, Validators
from store import selectors, services
from store.models import Order
from store.serializers import (
    NewOrderSerializer,
    OrderListFilter,
    OrderListQuery,
    OrderSerializer,
)

ORDER_ID = OpenApiParameter(
    "orderId", PATH_ID_SCHEMA, OpenApiParameter.PATH, description="The ID of the order."
)


@extend_schema(tags=["orders"])
class OrderViewSet(ConditionalViewSet):
    """The calling account's adoption orders; another account's orders do not exist for it."""

    pagination_class = KeysetPagination
    serializer_class = OrderSerializer
    required_scopes = {
        "list": Scope.ORDERS_READ,
        "create": Scope.ORDERS_WRITE,
        "retrieve": Scope.ORDERS_READ,
        "destroy": Scope.ORDERS_WRITE,
    }

    @staticmethod
    def versions(action: str, caller: Caller) -> Validators:
        """What the answers of its GETs show: the caller's account's orders alone."""
        return Validators((selectors.orders_version(caller.account_id),))

    def get_queryset(self) -> QuerySet[Order]:
        return Order.objects.filter(account_id=caller_key(self.request).account_id)

    @extend_schema(
        operation_id="listOrders",
        summary="List my orders",
        description="The calling account's orders in id order, paged like `listPets`.",
        parameters=[
            OrderListFilter,
            *response_headers("Link", on=(200,)),
            *conditional.PARAMETERS,
        ],
        responses={
            200: OpenApiResponse(OrderSerializer(many=True), "A page of orders."),
            **conditional.RESPONSES,
            **error_responses(400),
        },
    )
    def list(self, request: Request) -> HttpResponse:
        query = OrderListQuery.parse(request.query_params)
        wanted = pagination.page(request, query)
        orders = selectors.order_page(
            account_id=caller_key(request).account_id,
            after=wanted.after,
            limit=wanted.limit + 1,
            status=query.get("status"),
        )
        # A list of dicts: many=True makes a ListSerializer, which DRF's stubs do not follow.
        rows = cast(list[dict[str, Any]], OrderSerializer(orders, many=True).data)
        return pagination.page_response(request, wanted, rows)

    @extend_schema(
        operation_id="placeOrder",
        summary="Adopt an animal",
        description="The animal must be `available`; it becomes `pending` until the order is "
        "delivered (`sold`) or cancelled (`available` again).",
        request=NewOrderSerializer,
        parameters=[
            IDEMPOTENCY_KEY_PARAMETER,
            *response_headers("Location", "Idempotent-Replayed", on=(201,)),
        ],
        responses={
            201: OpenApiResponse(OrderSerializer, "The order, as placed."),
            **error_responses(400, 409, 413, 415, 422),
        },
    )
    @idempotent
    def create(self, request: Request) -> Response:
        new_order = NewOrderSerializer(data=json_object(request))
        new_order.is_valid(raise_exception=True)
        order = services.order_place(
            account_id=caller_key(request).account_id, pet_id=new_order.validated_data["petId"]
        )
        return Response(
            OrderSerializer(order).data,
            status=status.HTTP_201_CREATED,
            headers={"Location": f"/v1/store/orders/{order.pk}"},
        )

    @extend_schema(
        operation_id="getOrder",
        summary="Get one of my orders",
        description="The order as `listOrders` shows it; what `placeOrder`'s `Location` names.",
        parameters=[ORDER_ID, *conditional.PARAMETERS],
        responses={
            200: OpenApiResponse(OrderSerializer, "The order."),
            **conditional.RESPONSES,
            **error_responses(404),
        },
    )
    def retrieve(self, request: Request, orderId: int) -> HttpResponse:
        order = selectors.order_get(order_id=orderId, account_id=caller_key(request).account_id)
        if order is None:
            raise Http404
        return JsonAnswer(OrderSerializer(order).data)

    @extend_schema(
        operation_id="cancelOrder",
        summary="Cancel an order",
        description="Only until the animal is delivered; the animal is available again.",
        parameters=[ORDER_ID],
        responses={204: OpenApiResponse(description="Cancelled."), **error_responses(404, 409)},
    )
    def destroy(self, request: Request, orderId: int) -> Response:
        services.order_cancel(order_id=orderId, account_id=caller_key(request).account_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
