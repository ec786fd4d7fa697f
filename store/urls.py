from django.urls import path

import petstore.converters  # noqa: F401  (registers int64)
from store.views import OrderViewSet

urlpatterns = [
    path(
        "store/orders", OrderViewSet.as_view({"get": "list", "post": "create"}), name="order-list"
    ),
    path(
        "store/orders/<int64:orderId>",
        OrderViewSet.as_view({"get": "retrieve", "delete": "destroy"}),
        name="order-detail",
    ),
]
