"""Events stored before a field was added to their type keep matching the document: the feed
serves the field as null, with no data migration; and a field added to an event's data since
the latest release allows null, so that it can be served so."""

from __future__ import annotations

import json
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
import yaml
from rest_framework import serializers

from apikeys.models import ALL_SCOPES
from events.models import Event
from events.shapes import filled, shape_of
from events.types import AUDIENCE
from tests.events.documented import assert_events_documented

pytestmark = pytest.mark.django_db

SCHEMAS = "#/components/schemas/"
RELEASES = Path(__file__).resolve().parents[2] / "openapi" / "releases"


@pytest.fixture
def document(client) -> dict[str, Any]:
    return json.loads(client.get("/v1/openapi.json").content)


def data_schemas(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each event type's ``data`` schema in ``document``."""
    schemas = document["components"]["schemas"]
    found = {}
    for kind, ref in schemas["Event"]["discriminator"]["mapping"].items():
        data = schemas[ref.removeprefix(SCHEMAS)]["properties"]["data"]["allOf"][0]["$ref"]
        found[kind] = schemas[data.removeprefix(SCHEMAS)]
    return found


def example_data(document: dict[str, Any], kind: str) -> dict[str, Any]:
    schemas = document["components"]["schemas"]
    ref = schemas["Event"]["discriminator"]["mapping"][kind]
    return schemas[ref.removeprefix(SCHEMAS)]["example"]["data"]


def test_fields_an_event_was_stored_without_are_served_null_as_the_document_allows(
    client, document, make_account, make_key
):
    account = make_account(plan="enterprise")
    key = make_key(account, scopes=list(ALL_SCOPES))
    # Every field that may be null is left out, as if each had been added after the event.
    left_out = {}
    for kind, schema in data_schemas(document).items():
        nullable = [name for name, field in schema["properties"].items() if field.get("nullable")]
        data = {k: v for k, v in example_data(document, kind).items() if k not in nullable}
        owner = None if AUDIENCE[kind].shared else account.pk
        Event.objects.create(type=kind, data=data, account_id=owner)
        left_out[kind] = nullable

    response = client.get("/v1/events", {"limit": 100}, headers={"Authorization": f"Bearer {key}"})

    assert response.status_code == HTTPStatus.OK
    events = response.json()
    assert {event["type"] for event in events} == set(AUDIENCE)
    assert_events_documented(events)
    for event in events:
        assert all(event["data"][name] is None for name in left_out[event["type"]])
    assert sum(len(names) for names in left_out.values()) > 0


def test_every_field_added_to_an_events_data_since_the_latest_release_may_be_null(document):
    latest = max(RELEASES.glob("*.yaml"), key=lambda p: tuple(map(int, p.stem.split("."))))
    released = data_schemas(yaml.load(latest.read_text(), Loader=yaml.CSafeLoader))

    for kind, schema in data_schemas(document).items():
        before = released.get(kind, {"properties": {}})["properties"]
        added = [name for name in schema["properties"] if name not in before]
        for name in added:
            field = schema["properties"][name]
            assert field.get("nullable") or "default" in field, (kind, name)


class Tag(serializers.Serializer):
    name = serializers.CharField()
    colour = serializers.CharField(allow_null=True)


class Shown(serializers.Serializer):
    id = serializers.IntegerField()
    breed = serializers.CharField(allow_null=True)
    kind = serializers.CharField(default="dog")
    secret = serializers.CharField(write_only=True)
    owner = Tag()
    tags = Tag(many=True)


def test_a_stored_shape_is_filled_at_every_depth_and_left_alone_when_whole():
    shape = shape_of(Shown())
    old = {
        "id": 1,
        "owner": {"name": "Ann"},
        "tags": [{"name": "a"}, {"name": "b", "colour": "red"}],
    }
    whole = {
        "id": 1,
        "breed": "Beagle",
        "kind": "cat",
        "owner": {"name": "Ann", "colour": None},
        "tags": [],
    }

    assert filled(old, shape) == {
        "id": 1,
        "breed": None,
        "kind": "dog",
        "owner": {"name": "Ann", "colour": None},
        "tags": [{"name": "a", "colour": None}, {"name": "b", "colour": "red"}],
    }
    assert "secret" not in shape
    assert filled(whole, shape) is whole
    assert old == {
        "id": 1,
        "owner": {"name": "Ann"},
        "tags": [{"name": "a"}, {"name": "b", "colour": "red"}],
    }
