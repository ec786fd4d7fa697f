"""Errors are sentences: a bad value sent to each body property and query parameter of every
operation, as the document lists them, is refused with a message naming the field and saying
what it takes, never a Python structure's repr."""

from __future__ import annotations

import json
import re
from http import HTTPStatus

import pytest

from tests.assertions import assert_error
from tests.petstore.operations import (
    Bad,
    Operation,
    bad_in_body,
    bad_in_query,
    document,
    operations,
)

# What a Python structure looks like when printed: DRF's ErrorDetail, a dict or list literal.
REPR = re.compile(r"ErrorDetail|code=|string=|\{\s*['\"\d]|\[\s*['\"]|\(\s*['\"]")


def cases() -> list[tuple[str, str, str]]:
    """(operation, where, name) for every body property and query parameter."""
    found = []
    for operation in operations(document()):
        found += [(operation.id, "body", name) for name in operation.properties()]
        found += [(operation.id, "query", name) for name in operation.query_parameters()]
    return found


def find(operation_id: str) -> Operation:
    (operation,) = [o for o in operations(document()) if o.id == operation_id]
    return operation


def assert_a_sentence(message: str, name: str, bad: Bad) -> None:
    assert REPR.search(message) is None, message
    assert f"`{name}`" in message, message
    for word in bad.all:
        assert word in message, (word, message)
    if bad.any:
        assert any(word in message for word in bad.any), (bad.any, message)


@pytest.mark.parametrize(("operation_id", "where", "name"), cases())
def test_a_bad_value_is_refused_in_a_sentence_naming_the_field_and_what_it_takes(
    client, place, operation_id, where, name
):
    world, auth = place
    operation = find(operation_id)
    body = world.body(operation)
    if where == "body":
        schema = operation.properties()[name]
        bad = bad_in_body(schema, world.valid(name, schema))
        body = {**(body or {}), name: bad.value}
        url = world.url(operation)
    else:
        bad = bad_in_query(operation.query_parameters()[name])
        url = world.url(operation, f"{name}={bad.value}")

    response = client.generic(
        operation.method.upper(),
        url,
        b"" if body is None else json.dumps(body),
        "application/json",
        headers=auth,
    )

    answer = assert_error(response, HTTPStatus.BAD_REQUEST, "validation_error")
    assert list(answer["errors"]) == [name]
    assert_a_sentence(answer["message"], name, bad)
    for message in answer["errors"][name]:
        assert REPR.search(message) is None, message


def test_an_unknown_event_type_names_the_item_and_every_type(client, place):
    world, auth = place

    response = client.post(
        "/v1/webhook_endpoints",
        {"url": world.receiver_url, "events": ["pet.created", "pet.deleted"]},
        "application/json",
        headers=auth,
    )

    answer = assert_error(response, HTTPStatus.BAD_REQUEST, "validation_error")
    assert answer["message"].startswith('Invalid `events`: Item 2: "pet.deleted" is not one of: ')
    assert "pet.created, pet.status_changed" in answer["message"]
    assert "ErrorDetail" not in answer["message"]
