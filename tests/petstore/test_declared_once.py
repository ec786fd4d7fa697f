"""Each rule is declared once and read from there: an operation's responses at its view, the
event types in their table, the limit's windows in theirs. These tests fail when a copy
appears that can drift from its declaration."""

from __future__ import annotations

import json
from http import HTTPStatus
from typing import Any

import pytest
from drf_spectacular.generators import EndpointEnumerator, SchemaGenerator
from drf_spectacular.plumbing import ComponentRegistry

from apikeys.admin.accounts import AccountAdmin
from apikeys.admin.plans import PlanAdmin
from apikeys.models import Account, Plan
from apikeys.windows import WINDOWS
from events.types import AUDIENCE, EVENT_TYPES
from petstore.openapi import EVERY_ANSWER


@pytest.fixture
def document(client, db) -> dict[str, Any]:
    return json.loads(client.get("/v1/openapi.json").content)


def declared_by_the_views() -> dict[str, dict[str, set[str]]]:
    """Each operation's responses as its view declares them (its ``extend_schema``), before
    the document's hooks run: status -> the headers declared for it."""
    generator = SchemaGenerator()
    declared = {}
    for path, path_regex, method, callback in EndpointEnumerator().get_api_endpoints():
        view = generator.create_view(callback, method)
        operation = view.schema.get_operation(path, path_regex, "/v1", method, ComponentRegistry())
        if operation is None:  # the document's own view
            continue
        declared[operation["operationId"]] = {
            status: set(response.get("headers", {}))
            for status, response in operation["responses"].items()
        }
    return declared


def documented(document: dict[str, Any]) -> dict[str, dict[str, set[str]]]:
    """Each operation's responses in the served document, less the headers every response
    has (the limit's, Cache-Control, and Retry-After on a 429)."""
    shared = {*EVERY_ANSWER, "Retry-After"}
    return {
        operation["operationId"]: {
            status: set(response.get("headers", {})) - shared
            for status, response in operation["responses"].items()
        }
        for operations in document["paths"].values()
        for operation in operations.values()
    }


def test_every_operation_documents_the_statuses_and_headers_its_view_declares(document):
    declared = declared_by_the_views()

    assert "getCategory" in declared
    assert documented(document) == declared


def test_the_document_lists_the_event_types_of_the_table(document):
    schemas = document["components"]["schemas"]
    (filtered,) = [
        p for p in document["paths"]["/events"]["get"]["parameters"] if p["name"] == "type"
    ]
    subscribed = schemas["NewEndpoint"]["properties"]["events"]["items"]
    mapped = schemas["Event"]["discriminator"]["mapping"]

    assert sorted(AUDIENCE) == sorted(EVENT_TYPES)
    assert filtered["schema"]["items"] == subscribed == {"$ref": "#/components/schemas/EventType"}
    assert sorted(schemas["EventType"]["enum"]) == sorted(EVENT_TYPES) == sorted(mapped)


@pytest.mark.parametrize("separator", [",", ", "])
@pytest.mark.parametrize("start", range(len(EVENT_TYPES)))
def test_the_feed_takes_every_type_in_any_order(client, make_key, separator, start):
    key = make_key(scopes=["events:read", "pets:read", "orders:read"])
    types = EVENT_TYPES[start:] + EVENT_TYPES[:start]

    response = client.get(
        "/v1/events",
        {"type": separator.join(types)},
        headers={"Authorization": f"Bearer {key}"},
    )

    assert response.status_code == HTTPStatus.OK, response.content


def test_the_windows_are_those_of_their_table_everywhere(client, make_key, make_account):
    """The headers, GET /v1/rate_limit, the models and the admin each show every window of
    WINDOWS, in its order, with its length and its limit."""
    account = make_account(plan="enterprise", **{w.per: 7 * 10**n for n, w in enumerate(WINDOWS)})
    key = make_key(account)
    auth = {"Authorization": f"Bearer {key}"}
    policy = client.get("/v1/pets", headers=auth)["RateLimit-Policy"]
    shown = client.get("/v1/rate_limit", headers=auth).json()["windows"]

    expected = [(w.name, getattr(account, w.custom_field), w.seconds) for w in WINDOWS]
    assert policy == ", ".join(f'"{name}";q={q};w={seconds}' for name, q, seconds in expected)
    assert [(w["name"], w["limit"], w["seconds"]) for w in shown] == expected
    for window in WINDOWS:
        Plan._meta.get_field(window.plan_field)
        Account._meta.get_field(window.custom_field)
        assert window.plan_field in PlanAdmin.list_display
        assert any(window.custom_field in fields["fields"] for _, fields in AccountAdmin.fieldsets)
