"""Request bodies and query strings are validated with fields bound once per serializer class
(petstore.serializers.SharedFieldsSerializer): what one validation finds never reaches another."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from pets.serializers import NewCategorySerializer, NewPetSerializer, PetListQuery
from petstore.serializers import StrictSerializer


def test_a_serializer_class_binds_its_fields_once() -> None:
    assert NewPetSerializer().fields is NewPetSerializer().fields
    assert PetListQuery.bound_fields() is PetListQuery().fields


def _validate(n: int) -> tuple[bool, dict[str, object]]:
    body = {"name": f"Rex {n}", "categoryId": n} if n % 2 else {"name": "", "categoryId": "x"}
    serializer = NewPetSerializer(data=body)
    valid = serializer.is_valid()
    return valid, dict(serializer.validated_data if valid else serializer.errors)


def test_each_validation_keeps_its_own_values_and_errors_across_threads() -> None:
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(_validate, range(1, 401)))
    for n, (valid, found) in enumerate(results, 1):
        if n % 2:
            assert valid
            assert found == {"name": f"Rex {n}", "category_id": n, "status": "available"}
        else:
            assert not valid
            assert set(found) == {"name", "categoryId"}


def unbound(serializer: type[StrictSerializer]) -> type[StrictSerializer]:
    """A subclass of ``serializer`` whose fields no instance has bound yet."""
    return type(serializer.__name__, (serializer,), {})


def test_a_partial_serializer_leaves_out_what_is_not_sent() -> None:
    categories = unbound(NewCategorySerializer)
    assert categories().fields  # the class's fields bound first, by a plain instance

    partial = categories(data={"description": "Long ears"}, partial=True)

    assert partial.is_valid(), partial.errors
    assert partial.validated_data == {"description": "Long ears"}


def test_a_partial_serializer_still_checks_what_is_sent() -> None:
    partial = NewPetSerializer(data={"categoryId": "1"}, partial=True)

    assert not partial.is_valid()
    assert set(partial.errors) == {"categoryId"}


def test_a_partial_instance_leaves_the_shared_fields_required() -> None:
    categories = unbound(NewCategorySerializer)
    categories(data={}, partial=True).is_valid()  # the first instance of its class

    whole = categories(data={"description": "Long ears"})

    assert not whole.is_valid()
    assert set(whole.errors) == {"name"}


def test_each_field_reads_the_context_of_its_own_serializer() -> None:
    categories = unbound(NewCategorySerializer)
    assert categories(context={"request": "first"}).fields
    context = {"request": "second"}

    serializer = categories(context=context)

    assert serializer.fields["name"].context is context
    assert categories().fields["name"].context == {}
