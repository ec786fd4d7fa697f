from __future__ import annotations

from django.contrib import admin
from django.urls import include, path, register_converter
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularSwaggerView

from apikeys.views import RateLimitViewSet
from pets.views import CategoryViewSet, PetViewSet
from petstore import admin_login, probes
from petstore.openapi import OpenApiView
from petstore.serializers import INT64_MAX
from store.views import OrderViewSet


class Int64Converter:
    """A positive int64 id; anything else is not a path we serve (404, never a database error)."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 0 < number <= INT64_MAX:
            raise ValueError(value)
        return number

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(Int64Converter, "int64")

# Exactly these paths, without trailing slashes: /v1/pets/ is a 404, not a redirect.
v1 = [
    path("pets", PetViewSet.as_view({"get": "list", "post": "create"}), name="pet-list"),
    path("pets/<int64:petId>", PetViewSet.as_view({"get": "retrieve"}), name="pet-detail"),
    path("categories", CategoryViewSet.as_view({"get": "list"}), name="category-list"),
    path(
        "store/orders", OrderViewSet.as_view({"get": "list", "post": "create"}), name="order-list"
    ),
    path(
        "store/orders/<int64:orderId>",
        OrderViewSet.as_view({"delete": "destroy"}),
        name="order-detail",
    ),
    path("rate_limit", RateLimitViewSet.as_view({"get": "retrieve"}), name="rate-limit"),
    path("openapi.json", OpenApiView.as_view(), name="openapi"),
]

urlpatterns = [
    path("v1/", include(v1)),
    path("docs/", SpectacularSwaggerView.as_view(url_name="openapi"), name="docs"),
    path("healthz", probes.healthz, name="healthz"),
    path("readyz", probes.readyz, name="readyz"),
    path("admin/login/", admin_login.login, name="admin-login"),
    path("admin/", admin.site.urls),
    path("", RedirectView.as_view(pattern_name="docs")),
]
