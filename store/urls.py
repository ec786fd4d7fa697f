from django.urls import path

import petstore.converters  # noqa: F401  (registers int64)
from petstore.conditional import conditional
from store.views import OrderViewSet

urlpatterns = [
    path(
        "store/orders",
        conditional(OrderViewSet, {"get": "list", "post": "create"}),
        name="order-list",
    ),
    path(
        "store/orders/<int64:orderId>",
        conditional(OrderViewSet, {"get": "retrieve", "delete": "destroy"}),
        name="order-detail",
    ),
]
