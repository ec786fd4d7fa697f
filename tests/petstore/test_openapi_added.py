"""The document marks each field a type gained after a release ``x-added-after`` (the last
release whose type lacked it), read from the releases' documents: nobody declares it."""

from __future__ import annotations

import json
from http import HTTPStatus
from pathlib import Path
from typing import Any

import yaml

from petstore.openapi_added import ADDED_AFTER, added_fields, released_schemas


def fields(*names: str) -> dict[str, Any]:
    return {"properties": {name: {"type": "string"} for name in names}}


RELEASES = [
    ("1.0.0", {"Pet": fields("id", "name")}),
    ("1.1.0", {"Pet": fields("id", "name", "nickname"), "Order": fields("id")}),
    ("1.2.0", {"Pet": fields("id", "name", "nickname"), "Order": fields("id")}),
]


def test_a_field_is_marked_with_the_last_release_whose_type_lacked_it():
    today = {
        "Pet": fields("id", "name", "nickname", "colour"),
        "Order": fields("id", "note"),
        "Refund": fields("id"),
    }

    added = added_fields(today, RELEASES)

    assert added == {
        ("Pet", "nickname"): "1.0.0",
        ("Pet", "colour"): "1.2.0",
        ("Order", "note"): "1.2.0",
    }


def test_a_field_every_release_had_and_a_type_no_release_had_are_not_marked():
    assert added_fields({"Pet": fields("id", "name")}, RELEASES) == {}
    assert added_fields({"Refund": fields("id", "amount")}, RELEASES) == {}


def test_the_releases_are_read_from_their_folder_oldest_first():
    read = released_schemas()

    folder = Path(__file__).resolve().parents[2] / "openapi" / "releases"
    assert [version for version, _ in read] == sorted(
        (path.stem for path in folder.glob("*.yaml")),
        key=lambda version: tuple(map(int, version.split("."))),
    )
    first = yaml.load((folder / f"{read[0][0]}.yaml").read_text(), Loader=yaml.CSafeLoader)
    assert read[0][1] == first["components"]["schemas"]


def test_todays_document_marks_every_field_a_type_gained_since_the_first_release(client, db):
    response = client.get("/v1/openapi.json")
    assert response.status_code == HTTPStatus.OK

    schemas = json.loads(response.content)["components"]["schemas"]
    marked = [
        (name, field)
        for name, schema in schemas.items()
        for field, declared in schema.get("properties", {}).items()
        if ADDED_AFTER in declared
    ]
    # Every field a type gained since 1.0.0 is marked, and listed here.
    assert sorted(marked) == [("NewPet", "breed"), ("Pet", "breed"), ("PetStatusChange", "breed")]
