"""Request bodies and query strings are validated with fields bound once per serializer class
(petstore.serializers.SharedFieldsSerializer): what one validation finds never reaches another."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from pets.serializers import NewPetSerializer, PetListQuery


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
