from __future__ import annotations

from typing import Any, cast

from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiCallback,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import status, viewsets
from rest_framework.exceptions import PermissionDenied, Throttled
from rest_framework.request import Request
from rest_framework.response import Response

from apikeys.actors import actor_of
from apikeys.authentication import caller_key
from events.serializers import event_schema
from petstore import conditional, pagination
from petstore.cache_control import NO_STORE
from petstore.openapi import error_responses, response_headers
from petstore.pagination import KeysetPagination
from petstore.parsers import json_object
from petstore.renderers import JsonAnswer
from petstore.scopes import Scope
from petstore.serializers import PATH_ID_SCHEMA
from petstore.viewsets import ConditionalViewSet
from webhooks import deliveries, endpoints, selectors, services
from webhooks.models import Delivery, Endpoint
from webhooks.serializers import (
    CreatedEndpointSerializer,
    DeliveryListFilter,
    DeliveryListQuery,
    DeliverySerializer,
    EndpointChangesSerializer,
    EndpointSerializer,
    NewEndpointSerializer,
    RecoveredSerializer,
    RecoverySerializer,
    RotatedSecretSerializer,
    SecretRotationSerializer,
    TestSendSerializer,
)

SIGNATURE_HEADERS = [
    OpenApiParameter(name, OpenApiTypes.STR, OpenApiParameter.HEADER, required=True, description=d)
    for name, d in (
        ("webhook-id", "The event's id: the same on every try. Deduplicate by it."),
        ("webhook-timestamp", "Unix seconds when this try was signed."),
        ("webhook-signature", '`v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`.'),
    )
]
# What the service posts to an endpoint (an OpenAPI 3.0 callback of createWebhookEndpoint).
EVENT_DELIVERY = OpenApiCallback(
    "event",
    "{$request.body#/url}",
    {
        "post": extend_schema(
            summary="An event, delivered",
            description="Signed as Standard Webhooks says, with the endpoint's secret. Any "
            "2xx within 15 s is delivered; anything else is tried again (5 s, 5 min, 30 min, "
            "2 h, 5 h, 10 h, 14 h, 20 h, 24 h); 410 disables the endpoint.",
            request=event_schema(),
            parameters=SIGNATURE_HEADERS,
            responses={
                200: OpenApiResponse(description="Any 2xx: delivered."),
                410: OpenApiResponse(description="Gone: the endpoint is disabled."),
            },
        )
    },
)
ENDPOINT_ID = OpenApiParameter(
    "endpointId", PATH_ID_SCHEMA, OpenApiParameter.PATH, description="The endpoint's ID."
)
DELIVERY_ID = OpenApiParameter(
    "deliveryId", PATH_ID_SCHEMA, OpenApiParameter.PATH, description="The delivery's ID."
)


class SecretKeysOnly(viewsets.GenericViewSet):
    """Secret keys only: webhook endpoints name where the account's own events go."""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        if caller_key(request).is_publishable:
            raise PermissionDenied("Webhook endpoints need a secret key.")

    def _mine(self, request: Request, endpoint_id: int) -> Endpoint:
        """The caller's account's endpoint; another account's is not found."""
        account_id = caller_key(request).account_id
        endpoint = Endpoint.objects.filter(pk=endpoint_id, account_id=account_id).first()
        if endpoint is None:
            raise Http404
        return endpoint


@extend_schema(tags=["webhooks"])
class EndpointViewSet(SecretKeysOnly, ConditionalViewSet):
    """The calling account's webhook endpoints."""

    serializer_class = EndpointSerializer
    required_scopes = {
        "list": Scope.WEBHOOKS_READ,
        "create": Scope.WEBHOOKS_WRITE,
        "retrieve": Scope.WEBHOOKS_READ,
        "destroy": Scope.WEBHOOKS_WRITE,
        "partial_update": Scope.WEBHOOKS_WRITE,
        "rotate_secret": Scope.WEBHOOKS_WRITE,
        "recover": Scope.WEBHOOKS_WRITE,
        "test": Scope.WEBHOOKS_WRITE,
    }

    # No versions (ConditionalViewSet.versions): a paused endpoint's state changes when its
    # pause ends, without a write, so its answers are tagged by their bytes.

    @extend_schema(
        operation_id="listWebhookEndpoints",
        summary="List my webhook endpoints",
        description="The account's endpoints (at most 10), without their secrets.",
        parameters=conditional.PARAMETERS,
        responses={
            200: OpenApiResponse(EndpointSerializer(many=True), "The endpoints."),
            **conditional.RESPONSES,
            **error_responses(),
        },
    )
    def list(self, request: Request) -> HttpResponse:
        endpoints = Endpoint.objects.filter(account_id=caller_key(request).account_id)
        rows = cast(list[dict[str, Any]], EndpointSerializer(endpoints, many=True).data)
        return JsonAnswer(rows)

    @extend_schema(
        operation_id="createWebhookEndpoint",
        summary="Add a webhook endpoint",
        description="Events of the listed types made from now on are posted to `url`, signed "
        "with the `secret` this answer shows once (Standard Webhooks). At most 10 per account. "
        "A URL an account manager disabled an endpoint of (even one deleted since) is `409` "
        "until they lift it.",
        request=NewEndpointSerializer,
        parameters=response_headers("Location", on=(201,)),
        responses={
            201: OpenApiResponse(CreatedEndpointSerializer, "The endpoint, as made."),
            **error_responses(400, 409, 413, 415),
        },
        callbacks=[EVENT_DELIVERY],
    )
    def create(self, request: Request) -> Response:
        scopes = caller_key(request).scope_set
        new_endpoint = NewEndpointSerializer(data=json_object(request), context={"scopes": scopes})
        new_endpoint.is_valid(raise_exception=True)
        endpoint = services.endpoint_create(
            account_id=caller_key(request).account_id,
            by=actor_of(request),
            **new_endpoint.validated_data,
        )
        return Response(
            CreatedEndpointSerializer.of(endpoint),
            status=status.HTTP_201_CREATED,
            # It carries the secret: nobody keeps it.
            headers={"Location": f"/v1/webhook_endpoints/{endpoint.pk}", "Cache-Control": NO_STORE},
        )

    @extend_schema(
        operation_id="getWebhookEndpoint",
        summary="Get a webhook endpoint",
        description="The endpoint as `listWebhookEndpoints` shows it, without its secret; what "
        "`createWebhookEndpoint`'s `Location` names.",
        parameters=[ENDPOINT_ID, *conditional.PARAMETERS],
        responses={
            200: OpenApiResponse(EndpointSerializer, "The endpoint."),
            **conditional.RESPONSES,
            **error_responses(404),
        },
    )
    def retrieve(self, request: Request, endpointId: int) -> HttpResponse:
        return JsonAnswer(EndpointSerializer(self._mine(request, endpointId)).data)

    @extend_schema(
        operation_id="updateWebhookEndpoint",
        summary="Change a webhook endpoint",
        description="Only the fields sent change, each checked as at creation; nothing changes "
        "when any is refused. `enabled: true` makes a paused or disabled endpoint healthy and "
        "sends at once what was pending; the events that came while it was disabled are failed "
        "deliveries (error `disabled`), sent by `recoverWebhookEndpoint` since the outage. An "
        "endpoint an account manager disabled is enabled by them only: `409`, and so is a new "
        "`url` or `events` for it, or a `url` they disabled for another.",
        parameters=[ENDPOINT_ID],
        request=EndpointChangesSerializer,
        responses={
            200: OpenApiResponse(EndpointSerializer, "The endpoint, as changed."),
            **error_responses(400, 404, 409, 413, 415),
        },
    )
    def partial_update(self, request: Request, endpointId: int) -> HttpResponse:
        endpoint = self._mine(request, endpointId)
        changes = EndpointChangesSerializer(
            data=json_object(request),
            context={"scopes": caller_key(request).scope_set, "endpoint": endpoint},
        )
        changes.is_valid(raise_exception=True)
        endpoint = endpoints.endpoint_update(
            endpoint=endpoint, by=actor_of(request), **changes.validated_data
        )
        return JsonAnswer(EndpointSerializer(endpoint).data)

    @extend_schema(
        operation_id="rotateWebhookEndpointSecret",
        summary="Rotate a webhook endpoint's secret",
        description="A new secret, shown in this answer only. Until the current one expires, "
        "each delivery's `webhook-signature` carries a signature with each (space-separated, "
        "as Standard Webhooks allows), so that the receiver can switch without refusing one. "
        "A secret rotated away earlier signs too until its own overlap ends: rotated twice in "
        "a day, three secrets sign; at most 4, the newest (the current one and the 3 rotated "
        "away last).",
        parameters=[ENDPOINT_ID],
        request=SecretRotationSerializer,
        responses={
            200: OpenApiResponse(RotatedSecretSerializer, "The new secret."),
            **error_responses(400, 404, 413, 415),
        },
    )
    def rotate_secret(self, request: Request, endpointId: int) -> HttpResponse:
        endpoint = self._mine(request, endpointId)
        # Every field has a default: an empty body asks for the default overlap.
        rotation = SecretRotationSerializer(data=request.data)
        rotation.is_valid(raise_exception=True)
        endpoint = endpoints.endpoint_rotate_secret(
            endpoint=endpoint,
            expire_current_in_seconds=rotation.validated_data["expireCurrentInSeconds"],
            by=actor_of(request),
        )
        return JsonAnswer(
            RotatedSecretSerializer(endpoint).data, headers={"Cache-Control": NO_STORE}
        )

    @extend_schema(
        operation_id="deleteWebhookEndpoint",
        summary="Delete a webhook endpoint",
        description="Nothing more is sent to it.",
        parameters=[ENDPOINT_ID],
        responses={204: OpenApiResponse(description="Deleted."), **error_responses(404)},
    )
    def destroy(self, request: Request, endpointId: int) -> Response:
        services.endpoint_delete(endpoint=self._mine(request, endpointId), by=actor_of(request))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        operation_id="recoverWebhookEndpoint",
        summary="Send a webhook endpoint's failed deliveries again",
        description="Queues once more, oldest first, each of the endpoint's deliveries that "
        "failed and was made since `since`, up to 1,000 a call (`hasMore`: call again for the "
        "rest). The workers send them, each with its own `webhook-id`, once the endpoint is "
        "neither paused nor disabled.",
        parameters=[ENDPOINT_ID],
        request=RecoverySerializer,
        responses={
            202: OpenApiResponse(RecoveredSerializer, "Queued."),
            **error_responses(400, 404, 413, 415),
        },
    )
    def recover(self, request: Request, endpointId: int) -> Response:
        endpoint = self._mine(request, endpointId)
        recovery = RecoverySerializer(data=json_object(request))
        recovery.is_valid(raise_exception=True)
        recovered = deliveries.endpoint_recover(
            endpoint=endpoint, since=recovery.validated_data["since"], by=actor_of(request)
        )
        return Response(RecoveredSerializer(recovered).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(
        operation_id="testWebhookEndpoint",
        summary="Send an example event to a webhook endpoint",
        description="Queues a signed example of the type (id `evt_test_…`, `data` the type's "
        "example in this document) to this endpoint alone, whether or not it lists the type; "
        "never in the feed. The workers send it like any delivery, once the endpoint is "
        "neither paused nor disabled, and the deliveries list shows how it went. At most 10 a "
        "minute for each endpoint, retries of its test deliveries included.",
        parameters=[ENDPOINT_ID],
        request=TestSendSerializer,
        responses={
            202: OpenApiResponse(DeliverySerializer, "Queued: the delivery, as listed."),
            **error_responses(400, 404, 413, 415),
        },
    )
    def test(self, request: Request, endpointId: int) -> Response:
        endpoint = self._mine(request, endpointId)
        sent = TestSendSerializer(data=json_object(request))
        sent.is_valid(raise_exception=True)
        try:
            delivery = deliveries.endpoint_test(
                endpoint=endpoint, event_type=sent.validated_data["type"], by=actor_of(request)
            )
        except deliveries.TestsSpent as spent:
            raise Throttled(spent.wait, str(spent)) from None
        return Response(DeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)


@extend_schema(tags=["webhooks"])
class DeliveryViewSet(SecretKeysOnly):
    """An endpoint's deliveries: how each went, and sending one again."""

    pagination_class = KeysetPagination
    serializer_class = DeliverySerializer
    required_scopes = {"list": Scope.WEBHOOKS_READ, "retry": Scope.WEBHOOKS_WRITE}

    @extend_schema(
        operation_id="listWebhookDeliveries",
        summary="List a webhook endpoint's deliveries",
        description="Newest first, kept 30 days, paged like `listPets`: each with how its "
        "last attempt went (the receiver's status, how long it took, why it failed, the start "
        "of its answer).",
        parameters=[ENDPOINT_ID, DeliveryListFilter, *response_headers("Link", on=(200,))],
        responses={
            200: OpenApiResponse(DeliverySerializer(many=True), "A page of deliveries."),
            **error_responses(400, 404),
        },
    )
    def list(self, request: Request, endpointId: int) -> HttpResponse:
        endpoint = self._mine(request, endpointId)
        query = DeliveryListQuery.parse(request.query_params)
        wanted = pagination.page(request, query)
        found = selectors.delivery_page(
            endpoint=endpoint,
            state=query.get("state"),
            before=wanted.after,
            limit=wanted.limit + 1,
        )
        rows = cast(list[dict[str, Any]], DeliverySerializer(found, many=True).data)
        return pagination.page_response(request, wanted, rows)

    @extend_schema(
        operation_id="retryWebhookDelivery",
        summary="Send a delivery again",
        description="Sends it again now, whatever its state, with the same `webhook-id`, once "
        "its endpoint is neither paused nor disabled; the deliveries list shows how it went. "
        "While it is being sent, `409` (`conflict`) and nothing changes. A test delivery's "
        "retry counts among the endpoint's 10 test sends a minute (`429` past them).",
        parameters=[ENDPOINT_ID, DELIVERY_ID],
        request=None,
        responses={
            202: OpenApiResponse(DeliverySerializer, "Queued: the delivery, as listed."),
            **error_responses(404, 409),
        },
    )
    def retry(self, request: Request, endpointId: int, deliveryId: int) -> Response:
        endpoint = self._mine(request, endpointId)
        delivery = (
            Delivery.objects.select_related("event")
            .filter(pk=deliveryId, endpoint=endpoint)
            .first()
        )
        if delivery is None:
            raise Http404
        try:
            delivery = deliveries.delivery_retry(delivery=delivery, by=actor_of(request))
        except deliveries.TestsSpent as spent:
            raise Throttled(spent.wait, str(spent)) from None
        return Response(DeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)
