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
