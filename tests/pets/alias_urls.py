"""The API's URLs plus the pet listing at a second path, to show that cursors are path-bound."""

from __future__ import annotations

from django.urls import include, path

from pets.views import PetViewSet

urlpatterns = [
    path("v1/other-pets", PetViewSet.as_view({"get": "list"})),
    path("", include("petstore.urls")),
]
