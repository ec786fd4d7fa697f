from django.urls import path

import petstore.converters  # noqa: F401  (registers int64)
from petstore.conditional import conditional
from webhooks.views import EndpointViewSet

urlpatterns = [
    path(
        "webhook_endpoints",
        conditional(EndpointViewSet.as_view({"get": "list", "post": "create"})),
        name="webhook-endpoint-list",
    ),
    path(
        "webhook_endpoints/<int64:endpointId>",
        conditional(
            EndpointViewSet.as_view(
                {"get": "retrieve", "patch": "partial_update", "delete": "destroy"}
            )
        ),
        name="webhook-endpoint-detail",
    ),
    path(
        "webhook_endpoints/<int64:endpointId>/rotate_secret",
        EndpointViewSet.as_view({"post": "rotate_secret"}),
        name="webhook-endpoint-rotate-secret",
    ),
]
