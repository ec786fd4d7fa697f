"""The Python SDK's resources (clients/python/src/petstore_client/resources.py and its async
twin): every operation of the served document has a method, no method calls a deprecated one,
the async client has the sync one's methods, and the events a listing parses are the SDK's
``Event``."""

from __future__ import annotations

import inspect
import json
import typing
from http import HTTPStatus
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def sdk(monkeypatch, fresh_petstore_client) -> ModuleType:
    monkeypatch.syspath_prepend(str(ROOT / "clients" / "python" / "src"))
    import petstore_client

    return petstore_client


@pytest.fixture
def operations(client, db) -> dict[str, bool]:
    """Each operation of the served document, and whether it is deprecated."""
    response = client.get("/v1/openapi.json")
    assert response.status_code == HTTPStatus.OK
    document = json.loads(response.content)
    return {
        operation["operationId"]: operation.get("deprecated", False)
        for item in document["paths"].values()
        for operation in item.values()
        if isinstance(operation, dict) and "operationId" in operation
    }


def methods(petstore: Any, sdk: ModuleType) -> dict[str, Any]:
    """Each resource's methods by their path (``webhook_endpoints.deliveries.list``)."""
    found: dict[str, Any] = {}

    def walk(resource: Any, path: str) -> None:
        for name, value in vars(resource).items():
            if (
                type(value).__module__.startswith("petstore_client.")
                and "resources" in type(value).__module__.rpartition(".")[2]
            ):
                walk(value, f"{path}{name}.")
        for name, method in inspect.getmembers(type(resource), inspect.isfunction):
            if hasattr(method, "operation_id"):
                found[f"{path}{name}"] = method

    walk(petstore, "")
    return found


def test_every_operation_but_the_deprecated_has_a_method_in_both_clients(sdk, operations):
    for kind in (sdk.Petstore, sdk.AsyncPetstore):
        reached = {
            method.operation_id
            for method in methods(kind("key", server="http://127.0.0.1/v1"), sdk).values()
        }

        assert reached == {name for name, deprecated in operations.items() if not deprecated}
    assert [name for name, deprecated in operations.items() if deprecated] == ["getPet"]


def test_the_async_client_has_the_sync_clients_methods_with_their_parameters(sdk):
    sync = methods(sdk.Petstore("key", server="http://127.0.0.1/v1"), sdk)
    asynchronous = methods(sdk.AsyncPetstore("key", server="http://127.0.0.1/v1"), sdk)

    assert sorted(asynchronous) == sorted(sync)
    assert len(sync) == 24
    for path, method in sync.items():
        twin = asynchronous[path]
        assert twin.operation_id == method.operation_id, path
        assert list(inspect.signature(twin).parameters.values()) == list(
            inspect.signature(method).parameters.values()
        ), path


def test_the_sdks_event_is_every_event_the_generated_listing_parses(sdk):
    from petstore_client.generated.api.events import list_events

    def classes(annotation: Any) -> set[type]:
        if isinstance(annotation, type):
            return {annotation}
        return set().union(*(classes(arg) for arg in typing.get_args(annotation)))

    parsed = classes(typing.get_type_hints(list_events.sync)["return"])
    events = {kind for kind in parsed if kind.__name__.endswith("Event")}

    assert set(typing.get_args(sdk.Event)) == events
    assert typing.get_args(sdk.Event) == sdk.calls.EVENT_CLASSES
