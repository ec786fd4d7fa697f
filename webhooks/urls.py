from django.urls import path

import petstore.converters  # noqa: F401  (registers int64)
from petstore.conditional import conditional
from webhooks.views import DeliveryViewSet, EndpointViewSet

urlpatterns = [
    path(
        "webhook_endpoints",
        conditional(EndpointViewSet, {"get": "list", "post": "create"}),
        name="webhook-endpoint-list",
    ),
    path(
        "webhook_endpoints/<int64:endpointId>",
        conditional(
            EndpointViewSet, {"get": "retrieve", "patch": "partial_update", "delete": "destroy"}
        ),
        name="webhook-endpoint-detail",
    ),
    path(
        "webhook_endpoints/<int64:endpointId>/rotate_secret",
        EndpointViewSet.as_view({"post": "rotate_secret"}),
        name="webhook-endpoint-rotate-secret",
    ),
    path(
        "webhook_endpoints/<int64:endpointId>/deliveries",
        DeliveryViewSet.as_view({"get": "list"}),
        name="webhook-delivery-list",
    ),
    path(
        "webhook_endpoints/<int64:endpointId>/deliveries/<int64:deliveryId>/retry",
        DeliveryViewSet.as_view({"post": "retry"}),
        name="webhook-delivery-retry",
    ),
    path(
        "webhook_endpoints/<int64:endpointId>/recover",
        EndpointViewSet.as_view({"post": "recover"}),
        name="webhook-endpoint-recover",
    ),
    path(
        "webhook_endpoints/<int64:endpointId>/test",
        EndpointViewSet.as_view({"post": "test"}),
        name="webhook-endpoint-test",
    ),
]
