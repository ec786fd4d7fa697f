from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, URLResolver, include, path
from django.utils.module_loading import import_string
from django.views.decorators.csrf import csrf_exempt
from django.views.generic import RedirectView

from petstore import probes, prometheus


def on_first_request(view_class: str, **initkwargs: Any) -> Callable[..., HttpResponse]:
    """``view_class.as_view(**initkwargs)``, imported when it is first asked for.

    The document and docs views bring drf-spectacular's schema generator, which API requests
    never use; a worker that is never asked for them never loads it (README, "Choices worth
    knowing").
    """
    view: Callable[..., HttpResponse] | None = None

    @csrf_exempt  # as DRF's views are
    def first_request_imports(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        nonlocal view
        if view is None:
            view = import_string(view_class).as_view(**initkwargs)
        return view(request, *args, **kwargs)

    return first_request_imports


# The apps' URLs under /v1, named by module so that the project imports none of them.
v1: list[URLPattern | URLResolver] = [
    path("v1/", include("pets.urls")),
    path("v1/", include("store.urls")),
    path("v1/", include("apikeys.urls")),
    path("v1/", include("events.urls")),
    path("v1/", include("webhooks.urls")),
    path("v1/openapi.json", on_first_request("petstore.openapi_view.OpenApiView"), name="openapi"),
]

urlpatterns = [
    *v1,
    path(
        "docs/",
        on_first_request("drf_spectacular.views.SpectacularSwaggerView", url_name="openapi"),
        name="docs",
    ),
    path("healthz", probes.healthz, name="healthz"),
    path("readyz", probes.readyz, name="readyz"),
    path("metrics", prometheus.metrics, name="metrics"),
    path("admin/second-factor/", include("staff.urls")),
    path("admin/", admin.site.urls),
    path("", RedirectView.as_view(pattern_name="docs")),
]
