from django.urls import path

import petstore.converters  # noqa: F401  (registers int64)
from pets.views import CategoryViewSet, PetViewSet
from petstore.conditional import conditional

# Exactly these paths, without trailing slashes: /v1/pets/ is a 404, not a redirect.
urlpatterns = [
    path("pets", conditional(PetViewSet, {"get": "list", "post": "create"}), name="pet-list"),
    path(
        "pets/<int64:petId>",
        conditional(PetViewSet, {"get": "retrieve"}),
        name="pet-detail",
    ),
    path(
        "categories",
        conditional(CategoryViewSet, {"get": "list", "post": "create"}),
        name="category-list",
    ),
    path(
        "categories/<int64:categoryId>",
        conditional(CategoryViewSet, {"get": "retrieve"}),
        name="category-detail",
    ),
]
