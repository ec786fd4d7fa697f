from django.urls import path

import petstore.converters  # noqa: F401  (registers int64)
from pets.views import CategoryViewSet, PetViewSet

# Exactly these paths, without trailing slashes: /v1/pets/ is a 404, not a redirect.
urlpatterns = [
    path("pets", PetViewSet.as_view({"get": "list", "post": "create"}), name="pet-list"),
    path("pets/<int64:petId>", PetViewSet.as_view({"get": "retrieve"}), name="pet-detail"),
    path(
        "categories",
        CategoryViewSet.as_view({"get": "list", "post": "create"}),
        name="category-list",
    ),
    path(
        "categories/<int64:categoryId>",
        CategoryViewSet.as_view({"get": "retrieve"}),
        name="category-detail",
    ),
]
