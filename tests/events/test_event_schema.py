"""``Event`` in the document is a union told apart by ``type``, one schema per type of the event
table with its ``data``'s serializer; every kind of event the feed serves is, to jsonschema,
what the document says."""

from __future__ import annotations

import json
from http import HTTPStatus

import pytest
from django.utils.module_loading import import_string

from apikeys.models import ALL_SCOPES
from events.models import Event
from events.types import AUDIENCE, EVENT_TYPES
from pets import services as pets_services
from pets.models import Pet
from pets.serializers import PetSerializer, PetStatusChangeSerializer
from store import services as store_services
from tests.events.documented import assert_events_documented, event_validator
from webhooks import services as webhook_services

SCHEMAS = "#/components/schemas/"


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture
def document(client, db) -> dict:
    return json.loads(client.get("/v1/openapi.json").content)


def test_every_type_of_the_table_has_its_schema_and_its_mapping(document):
    schemas = document["components"]["schemas"]
    event = schemas["Event"]
    mapping = event["discriminator"]["mapping"]

    assert event["discriminator"]["propertyName"] == "type"
    assert sorted(mapping) == sorted(EVENT_TYPES)
    assert sorted(ref["$ref"] for ref in event["oneOf"]) == sorted(mapping.values())
    for kind, audience in AUDIENCE.items():
        typed = schemas[mapping[kind].removeprefix(SCHEMAS)]
        data = import_string(audience.data).__name__.removesuffix("Serializer")
        assert typed["properties"]["type"]["enum"] == [kind]
        assert typed["properties"]["data"]["allOf"] == [{"$ref": SCHEMAS + data}]
        assert {"id", "type", "createdAt", "data"} <= set(typed["required"])


def test_every_types_example_is_as_its_schema_says(document):
    schemas = document["components"]["schemas"]
    mapping = schemas["Event"]["discriminator"]["mapping"]
    examples = [schemas[ref.removeprefix(SCHEMAS)]["example"] for ref in mapping.values()]

    assert sorted(example["type"] for example in examples) == sorted(EVENT_TYPES)
    assert_events_documented(examples)


def test_an_event_unlike_its_types_schema_is_refused():
    order = {"id": 1, "petId": 2, "quantity": 1, "shipDate": None, "complete": False}
    pet = {"id": 2, "name": "Rex", "categoryId": 1, "status": "pending", "breed": None}
    event = {"id": "evt_1", "createdAt": "2026-01-01T12:00:00Z"}
    validator = event_validator()

    assert validator.is_valid(
        {**event, "type": "order.placed", "data": order | {"status": "pending"}}
    )
    assert validator.is_valid({**event, "type": "pet.created", "data": pet})
    assert not validator.is_valid({**event, "type": "order.placed", "data": pet})
    assert not validator.is_valid({**event, "type": "pet.status_changed", "data": pet})
    assert not validator.is_valid({**event, "type": "pet.adopted", "data": pet})
    assert not validator.is_valid(
        {**event, "type": "pet.created", "data": pet | {"status": "lost"}}
    )


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_every_kind_of_event_the_feed_serves_is_as_the_document_says(
    client, make_account, make_key, clock
):
    # Ten requests a day: the eighth passes 80 % (usage.threshold); the ninth reads the feed.
    account = make_account(plan="enterprise", per_day=10)
    key = make_key(account, scopes=list(ALL_SCOPES))

    def post(path: str, body: dict) -> dict:
        response = client.post(
            path, json.dumps(body), content_type="application/json", headers=bearer(key)
        )
        assert response.status_code == HTTPStatus.CREATED, response.content
        return response.json()

    category = post("/v1/categories", {"name": "Ferrets"})
    kept, returned = (
        post("/v1/pets", {"name": name, "categoryId": category["id"]}) for name in ("Rex", "Fido")
    )
    adopted = post("/v1/store/orders", {"petId": kept["id"]})
    cancelled = post("/v1/store/orders", {"petId": returned["id"]})
    store_services.order_approve(order_id=adopted["id"])
    store_services.order_deliver(order_id=adopted["id"])
    store_services.order_cancel(order_id=cancelled["id"])
    endpoint = webhook_services.endpoint_create(
        account_id=account.pk, url="https://receiver.example/hooks", events=["pet.created"]
    )
    webhook_services.endpoint_set_enabled(endpoint, False, "The endpoint answered 410 Gone.")
    for _ in range(3):
        client.get("/v1/categories", headers=bearer(key))
    response = client.get("/v1/events", {"limit": 100}, headers=bearer(key))

    assert response.status_code == HTTPStatus.OK
    events = response.json()
    # A type added to the table is produced above, or this fails.
    assert {event["type"] for event in events} == set(EVENT_TYPES)
    assert_events_documented(events)
    for event in events:
        fields = import_string(AUDIENCE[event["type"]].data)().fields
        assert set(event["data"]) == set(fields), event


@pytest.mark.django_db
def test_an_animals_events_show_it_as_the_tables_serializers_do(dog):
    # pet.created's data is built in SQL from the prepared shape (pets.services): the same.
    added = pets_services.pet_create(name="Rex", category_id=dog.pk)
    as_added = Pet.objects.get(pk=added.pk)
    pets_services.pet_change_status(pet_id=added.pk, status="pending")
    as_changed = Pet.objects.get(pk=added.pk)
    as_changed.previous_status = "available"  # type: ignore[attr-defined]

    created, changed = Event.objects.order_by("id")

    assert created.data == PetSerializer(as_added).data
    assert changed.data == PetStatusChangeSerializer(as_changed).data
