from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.urls import include, path, register_converter
from django.utils.module_loading import import_string
from django.views.generic import RedirectView

from apikeys.views import RateLimitViewSet, UsageViewSet
from pets.views import CategoryViewSet, PetViewSet
from petstore import admin_login, probes
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


def on_first_request(view_class: str, **initkwargs: Any) -> Callable[..., HttpResponse]:
    """``view_class.as_view(**initkwargs)``, imported when it is first asked for.

    The document and docs views bring drf-spectacular's schema generator (about 5 MB in every
    worker) that API requests never use; a worker that is never asked for them never loads it.
    """
    view: Callable[..., HttpResponse] | None = None

    def first_request_imports(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        nonlocal view
        if view is None:
            view = import_string(view_class).as_view(**initkwargs)
        return view(request, *args, **kwargs)

    first_request_imports.csrf_exempt = True  # type: ignore[attr-defined]  # as DRF's views are
    return first_request_imports


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
    path("usage", UsageViewSet.as_view({"get": "list"}), name="usage"),
    path("openapi.json", on_first_request("petstore.openapi.OpenApiView"), name="openapi"),
]

urlpatterns = [
    path("v1/", include(v1)),
    path(
        "docs/",
        on_first_request("drf_spectacular.views.SpectacularSwaggerView", url_name="openapi"),
        name="docs",
    ),
    path("healthz", probes.healthz, name="healthz"),
    path("readyz", probes.readyz, name="readyz"),
    path("admin/login/", admin_login.login, name="admin-login"),
    path("admin/", admin.site.urls),
    path("", RedirectView.as_view(pattern_name="docs")),
]
