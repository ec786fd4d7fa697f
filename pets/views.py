from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpResponse
from django.utils import timezone
from django.utils.http import http_date
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request

from pets import selectors, services
from pets.serializers import (
    CategorySerializer,
    NewCategorySerializer,
    NewPetSerializer,
    PetListFilter,
    PetListQuery,
    PetSerializer,
)
from petstore import conditional, pagination
from petstore.callers import Caller
from petstore.errors import Gone
from petstore.idempotency import IDEMPOTENCY_KEY_PARAMETER, idempotent
from petstore.openapi import error_responses, response_headers
from petstore.pagination import KeysetPagination
from petstore.parsers import json_object
from petstore.renderers import JsonAnswer
from petstore.scopes import Scope
from petstore.serializers import PATH_ID_SCHEMA
from petstore.viewsets import ConditionalViewSet, Validators

PET_ID = OpenApiParameter(
    "petId", PATH_ID_SCHEMA, OpenApiParameter.PATH, description="The ID of the animal."
)
CATEGORY_ID = OpenApiParameter(
    "categoryId", PATH_ID_SCHEMA, OpenApiParameter.PATH, description="The ID of the category."
)


def getpet_deprecation_headers() -> dict[str, str]:
    """getPet's deprecation (RFC 9745), its sunset (RFC 8594) and what replaces it."""
    return {
        "Deprecation": f"@{int(settings.PETSTORE_GETPET_DEPRECATED_AT.timestamp())}",
        "Sunset": http_date(settings.PETSTORE_GETPET_SUNSET_AT.timestamp()),
        "Link": '</v1/pets>; rel="successor-version"',
    }


@extend_schema(tags=["animals"])
class PetViewSet(ConditionalViewSet):
    pagination_class = KeysetPagination
    serializer_class = PetSerializer
    required_scopes = {
        "list": Scope.PETS_READ,
        "create": Scope.PETS_WRITE,
        "retrieve": Scope.PETS_READ,
    }

    @extend_schema(
        operation_id="listPets",
        summary="List animals",
        description="Animals in id order, `limit` at a time, of the `status`, categories and "
        "`name` asked for (all of them). When more follow, the `Link` header has the next "
        'page\'s URL (`rel="next"`), with the same filters.',
        parameters=[PetListFilter, *response_headers("Link", on=(200,)), *conditional.PARAMETERS],
        responses={
            200: OpenApiResponse(PetSerializer(many=True), "A page of animals."),
            **conditional.RESPONSES,
            **error_responses(400),
        },
    )
    def list(self, request: Request) -> HttpResponse:
        query = PetListQuery.parse(request.query_params)
        filters = PetListFilter.lookups(query)
        wanted = pagination.page(request, query)
        # One more than the page holds: whether a next page exists, without a COUNT.
        pets = selectors.pet_page(after=wanted.after, limit=wanted.limit + 1, filters=filters)
        return pagination.page_response(request, wanted, pets)

    @extend_schema(
        operation_id="createPet",
        summary="Add an animal",
        request=NewPetSerializer,
        parameters=[
            IDEMPOTENCY_KEY_PARAMETER,
            *response_headers("Location", "Idempotent-Replayed", on=(201,)),
        ],
        responses={
            201: OpenApiResponse(PetSerializer, "The animal, as added."),
            **error_responses(400, 409, 413, 415, 422),
        },
    )
    @idempotent
    def create(self, request: Request) -> HttpResponse:
        new_pet = NewPetSerializer(data=json_object(request))
        new_pet.is_valid(raise_exception=True)
        pet = services.pet_create(**new_pet.validated_data)
        return JsonAnswer(
            selectors.PET.of(pet),
            status=status.HTTP_201_CREATED,
            headers={"Location": f"/v1/pets/{pet.pk}"},
        )

    @extend_schema(
        operation_id="getPet",
        summary="Get an animal",
        description="Deprecated: removed on 5 December 2030. Use `GET /pets?id={petId}` "
        "instead. Answers `410` from that date.",
        deprecated=True,
        parameters=[
            PET_ID,
            # On the view's own answers: a 429 (the limiter's) or a 404 for an id out of range
            # (the router's) never reach it.
            *response_headers("Deprecation", "Sunset", on=(200, 410)),
            *response_headers("Link", on=(200,)),
            *conditional.PARAMETERS,
        ],
        responses={
            200: OpenApiResponse(PetSerializer, "The animal."),
            **conditional.RESPONSES,
            **error_responses(404, 410),
        },
    )
    def retrieve(self, request: Request, petId: int) -> HttpResponse:
        if timezone.now() >= settings.PETSTORE_GETPET_SUNSET_AT:
            raise Gone("getPet was removed on its sunset date; use GET /v1/pets.")
        pet = selectors.pet_get(petId)
        if pet is None:
            raise Http404
        return JsonAnswer(pet)

    @staticmethod
    def versions(action: str, caller: Caller) -> Validators | None:
        """What the answers of its GETs show (petstore.conditional)."""
        if action == "retrieve" and timezone.now() >= settings.PETSTORE_GETPET_SUNSET_AT:
            return None  # the view answers 410
        return Validators((selectors.PETS_VERSION,))

    def finalize_response(  # type: ignore[override]  # DRF's stubs say Response; any answer comes
        self, request: Request, response: HttpResponse, *args: Any, **kwargs: Any
    ) -> HttpResponse:
        response = super().finalize_response(request, response, *args, **kwargs)  # type: ignore[arg-type]
        if self.action == "retrieve":
            for name, value in getpet_deprecation_headers().items():
                response[name] = value
        return response


@extend_schema(tags=["categories"])
class CategoryViewSet(ConditionalViewSet):
    serializer_class = CategorySerializer
    # Categories are how animals are browsed: reading them is reading animals.
    required_scopes = {
        "list": Scope.PETS_READ,
        "retrieve": Scope.PETS_READ,
        "create": Scope.CATEGORIES_WRITE,
    }

    @staticmethod
    def versions(action: str, caller: Caller) -> Validators:
        """What the answers of its GETs show (petstore.conditional)."""
        return Validators((selectors.CATEGORIES_VERSION,))

    @extend_schema(
        operation_id="listCategories",
        summary="List categories",
        parameters=conditional.PARAMETERS,
        responses={
            200: OpenApiResponse(CategorySerializer(many=True), "Every category."),
            **conditional.RESPONSES,
            **error_responses(),
        },
    )
    def list(self, request: Request) -> HttpResponse:
        return JsonAnswer(CategorySerializer(selectors.category_list(), many=True).data)

    @extend_schema(
        operation_id="createCategory",
        summary="Add a category",
        description="Adds a kind of animal, listed by `listCategories` at once and usable in "
        "`createPet`. Needs the `categories:write` scope, which no key has unless given it. A "
        "name that exists already, in any case, is a `409`.",
        request=NewCategorySerializer,
        parameters=[
            IDEMPOTENCY_KEY_PARAMETER,
            *response_headers("Location", "Idempotent-Replayed", on=(201,)),
        ],
        responses={
            201: OpenApiResponse(CategorySerializer, "The category, as added."),
            **error_responses(400, 409, 413, 415, 422),
        },
    )
    @idempotent
    def create(self, request: Request) -> HttpResponse:
        new_category = NewCategorySerializer(data=json_object(request))
        new_category.is_valid(raise_exception=True)
        category = services.category_create(**new_category.validated_data)
        return JsonAnswer(
            CategorySerializer(category).data,
            status=status.HTTP_201_CREATED,
            headers={"Location": f"/v1/categories/{category.pk}"},
        )

    @extend_schema(
        operation_id="getCategory",
        summary="Get a category",
        parameters=[CATEGORY_ID, *conditional.PARAMETERS],
        responses={
            200: OpenApiResponse(CategorySerializer, "The category."),
            **conditional.RESPONSES,
            **error_responses(404),
        },
    )
    def retrieve(self, request: Request, categoryId: int) -> HttpResponse:
        category = selectors.category_get(categoryId)
        if category is None:
            raise Http404
        return JsonAnswer(CategorySerializer(category).data)
