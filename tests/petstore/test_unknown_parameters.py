"""Unknown query parameters are refused by name on every operation, as unknown body fields are;
what each operation takes is what the document lists for it, and all of that passes."""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any

import pytest
from django.urls import resolve

from pets.models import Pet
from petstore.pagination import encode_cursor
from petstore.query_parameters import taken
from tests.assertions import assert_error
from tests.petstore.operations import Operation, World, document, operations


def call(client, operation: Operation, world: World, auth: dict[str, str], query: str) -> Any:
    body = world.body(operation)
    return client.generic(
        operation.method.upper(),
        world.url(operation, query),
        b"" if body is None else json.dumps(body),
        "application/json",
        headers=auth,
    )


def every_operation() -> list[str]:
    return [operation.id for operation in operations(document())]


def find(operation_id: str) -> Operation:
    (operation,) = [o for o in operations(document()) if o.id == operation_id]
    return operation


@pytest.mark.parametrize("operation_id", every_operation())
def test_an_unknown_parameter_is_refused_by_name_before_the_operation_runs(
    client, place, operation_id
):
    world, auth = place
    operation = find(operation_id)
    pets = Pet.objects.count()

    response = call(client, operation, world, auth, "colour=red&categoryid=2")

    body = assert_error(response, HTTPStatus.BAD_REQUEST, "validation_error")
    assert set(body["errors"]) == {"colour", "categoryid"}
    assert body["message"].startswith("Unknown query parameters `colour`, `categoryid`: ")
    for name in operation.query_parameters():
        assert f"`{name}`" in body["message"]
    assert Pet.objects.count() == pets  # nothing was added, nor anything else done


@pytest.mark.parametrize("operation_id", every_operation())
def test_each_operation_takes_exactly_the_parameters_the_document_lists(operation_id):
    operation = find(operation_id)
    ids = dict.fromkeys(("petId", "categoryId", "orderId", "endpointId", "deliveryId"), 1)
    view = resolve(World(ids).url(operation)).func

    assert set(taken(view, operation.method.upper())) == set(operation.query_parameters())


@pytest.mark.parametrize(
    "operation_id",
    [operation.id for operation in operations(document()) if operation.query_parameters()],
)
def test_every_documented_parameter_passes(client, place, operation_id):
    world, auth = place
    operation = find(operation_id)
    path = world.url(operation)
    values = {
        name: world.valid(name, schema) for name, schema in operation.query_parameters().items()
    }
    if "cursor" in values:
        values["cursor"] = encode_cursor(path, 1)
    query = "&".join(
        f"{name}={','.join(value) if isinstance(value, list) else value}"
        for name, value in values.items()
    )

    response = call(client, operation, world, auth, query)

    assert response.status_code == HTTPStatus.OK, response.content


def test_a_parameter_is_matched_by_its_exact_name(client, place, make_pet):
    world, auth = place

    typo = client.get("/v1/pets?categoryid=2", headers=auth)
    right = client.get(f"/v1/pets?categoryId={world.ids['categoryId']}", headers=auth)

    body = assert_error(typo, HTTPStatus.BAD_REQUEST, "validation_error")
    assert body["message"] == (
        "Unknown query parameter `categoryid`: this operation takes `id`, `status`, `categoryId`, "
        "`name`, `breed`, `limit`, `cursor`."
    )
    assert right.status_code == HTTPStatus.OK
    assert len(right.json()) == 2


def test_an_escaped_name_is_read_as_the_view_reads_it(client, place):
    _world, auth = place

    escaped = client.get("/v1/pets?li%6Dit=1", headers=auth)  # limit, one letter escaped
    typo = client.get("/v1/pets?limit=1&categor%79id=2", headers=auth)
    spaced = client.get("/v1/pets?cat+id=2", headers=auth)

    assert escaped.status_code == HTTPStatus.OK, escaped.content
    assert len(escaped.json()) == 1
    assert set(assert_error(typo, HTTPStatus.BAD_REQUEST, "validation_error")["errors"]) == {
        "categoryid"
    }
    assert set(assert_error(spaced, HTTPStatus.BAD_REQUEST, "validation_error")["errors"]) == {
        "cat id"
    }


def test_an_unknown_parameter_is_refused_on_a_request_that_would_be_a_304(client, place):
    _world, auth = place
    first = client.get("/v1/pets?limit=1", headers=auth)
    tag = {**auth, "If-None-Match": first["ETag"]}

    again = client.get("/v1/pets?limit=1", headers=tag)
    typo = client.get("/v1/pets?limit=1&categoryid=2", headers=tag)

    assert again.status_code == HTTPStatus.NOT_MODIFIED
    body = assert_error(typo, HTTPStatus.BAD_REQUEST, "validation_error")
    assert set(body["errors"]) == {"categoryid"}


def single_and_listed() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Every (operation, query parameter) of the document: those that take one value, and
    those the document declares as arrays, which take one per item, repeated or comma-separated."""
    single: list[tuple[str, str]] = []
    listed: list[tuple[str, str]] = []
    for operation in operations(document()):
        for name, schema in operation.query_parameters().items():
            kind = listed if schema.get("type") == "array" else single
            kind.append((operation.id, name))
    return single, listed


SINGLE, LISTED = single_and_listed()


def one_value(world: World, operation: Operation, name: str) -> str:
    if name == "cursor":
        return encode_cursor(world.url(operation), 1)
    value = world.valid(name, operation.query_parameters()[name])
    return ",".join(value) if isinstance(value, list) else str(value)


@pytest.mark.parametrize(("operation_id", "name"), SINGLE)
def test_a_single_valued_parameter_sent_twice_is_refused_by_name(client, place, operation_id, name):
    world, auth = place
    operation = find(operation_id)
    value = one_value(world, operation, name)
    once = call(client, operation, world, auth, f"{name}={value}")

    twice = call(client, operation, world, auth, f"{name}={value}&{name}={value}")

    assert once.status_code == HTTPStatus.OK, once.content
    body = assert_error(twice, HTTPStatus.BAD_REQUEST, "validation_error")
    assert set(body["errors"]) == {name}
    assert f"`{name}`" in body["message"]


@pytest.mark.parametrize(("operation_id", "name"), LISTED)
def test_an_array_parameter_still_takes_one_value_per_item_repeated(
    client, place, make_pet, operation_id, name
):
    world, auth = place
    operation = find(operation_id)
    items = operation.query_parameters()[name]["items"]
    first, second = items["enum"][:2] if "enum" in items else (world.ids.get(name, 1), 2)

    response = call(client, operation, world, auth, f"{name}={first}&{name}={second}")

    assert response.status_code == HTTPStatus.OK, response.content


def test_the_walk_covers_the_parameters_named_in_the_issue():
    assert {("listPets", "limit"), ("getUsage", "days"), ("listPets", "cursor")} <= set(SINGLE)
    assert {("listPets", "id"), ("listPets", "categoryId"), ("listEvents", "type")} <= set(LISTED)


def test_a_parameter_repeated_under_an_escaped_name_is_refused(client, place):
    _world, auth = place

    response = client.get("/v1/pets?limit=1&li%6Dit=100", headers=auth)

    body = assert_error(response, HTTPStatus.BAD_REQUEST, "validation_error")
    assert set(body["errors"]) == {"limit"}


def test_a_repeated_parameter_is_refused_on_a_request_that_would_be_a_304(client, place):
    _world, auth = place
    first = client.get("/v1/pets?limit=1", headers=auth)
    tag = {**auth, "If-None-Match": first["ETag"]}

    again = client.get("/v1/pets?limit=1", headers=tag)
    twice = client.get("/v1/pets?limit=1&limit=1", headers=tag)

    assert again.status_code == HTTPStatus.NOT_MODIFIED
    body = assert_error(twice, HTTPStatus.BAD_REQUEST, "validation_error")
    assert set(body["errors"]) == {"limit"}


def test_an_unknown_and_a_repeated_parameter_are_named_at_once(client, place):
    _world, auth = place

    response = client.get("/v1/pets?limit=1&colour=red&limit=2", headers=auth)

    body = assert_error(response, HTTPStatus.BAD_REQUEST, "validation_error")
    assert set(body["errors"]) == {"colour", "limit"}
    assert body["message"].startswith("Unknown query parameter `colour`: ")
    assert "`limit`" in body["message"]
