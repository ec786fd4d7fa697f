"""The document as the SDKs' generators read it (clients/generator_input.py), and what the code
generated from it accepts: a value of an open enum it does not list (as the plain string), a
field it does not know (kept), an event of a type it does not list, and no field that the
document marks added after a release; a closed enum still refuses a value it does not list."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from http import HTTPStatus
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ANY_STRING = {"type": "string", "x-any-other-value": True}


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "generator_input", ROOT / "clients/generator_input.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


generator_input = _module()


@pytest.fixture
def document(client, db) -> dict[str, Any]:
    response = client.get("/v1/openapi.json")
    assert response.status_code == HTTPStatus.OK
    return json.loads(response.content)


def test_an_open_enum_in_an_answer_is_the_enum_or_any_other_string(document):
    schemas = generator_input.for_generators(document)["components"]["schemas"]

    assert schemas["RateLimitWindow"]["properties"]["name"]["anyOf"] == [
        {"$ref": "#/components/schemas/WindowName"},
        ANY_STRING,
    ]
    assert schemas["Order"]["properties"]["status"]["readOnly"] is True
    assert schemas["Endpoint"]["properties"]["events"]["items"]["anyOf"][1] == ANY_STRING
    assert schemas["Error"]["properties"]["code"]["anyOf"][1] == ANY_STRING


def test_closed_enums_requests_and_an_events_own_type_keep_their_values(document):
    made = generator_input.for_generators(document)
    schemas = made["components"]["schemas"]

    before = document["components"]["schemas"]
    for name, field in [("Pet", "status"), ("NewEndpoint", "events"), ("PetCreatedEvent", "type")]:
        assert schemas[name]["properties"][field] == before[name]["properties"][field]
    assert made["paths"]["/events"] == document["paths"]["/events"]


def test_a_field_added_after_a_release_is_not_required(document):
    pet = document["components"]["schemas"]["Pet"]
    pet["properties"]["name"]["x-added-after"] = "1.0.0"

    marked = {name for name, field in pet["properties"].items() if "x-added-after" in field}

    made = generator_input.for_generators(document)["components"]["schemas"]["Pet"]

    assert "name" in marked
    assert made["required"] == [name for name in pet["required"] if name not in marked]
    assert "name" in pet["required"]


def test_the_python_events_union_ends_with_what_every_event_has(document):
    schemas = generator_input.for_python(document)["components"]["schemas"]

    assert schemas["Event"]["oneOf"][-1] == {"$ref": "#/components/schemas/UnknownEvent"}
    unknown = schemas["UnknownEvent"]
    assert list(unknown["properties"]) == ["id", "type", "createdAt", "data"]
    assert unknown["properties"]["type"]["type"] == "string"
    assert unknown["properties"]["data"] == {}
    assert unknown["properties"]["id"] == schemas["PetCreatedEvent"]["properties"]["id"]
    assert unknown["required"] == ["id", "type", "createdAt", "data"]


# Run by the SDK generated from a document whose Pet gained a field after the release.
PARSE = """
import json
import httpx
from petstore_client.generated import Client
from petstore_client.generated.api.events import list_events
from petstore_client.generated.models import (
    Error, Order, Pet, PetCreatedEvent, RateLimitWindow, UnknownEvent, WindowName,
)
from petstore_client.generated.types import UNSET

pet = {"id": 1, "name": "Rex", "categoryId": 1, "status": "available"}
event = {"id": "evt_1", "createdAt": "2026-01-02T10:00:00Z"}
feed = [
    {**event, "type": "pet.created", "data": pet},
    {**event, "type": "pet.created", "data": {**pet, "nickname": "Rexy"}},
    {**event, "type": "pet.renamed", "data": {**pet, "nickname": "Rexy"}},
]
window = {"limit": 9, "used": 1, "remaining": 8, "reset": 1, "seconds": 900}
events = list_events._parse_response(
    client=Client(base_url="http://test"), response=httpx.Response(200, json=feed)
)
try:
    Pet.from_dict({**pet, "status": "adopted"})
    closed = "accepted"
except ValueError:
    closed = "refused"
print(json.dumps({
    "events": [type(e).__name__ for e in events],
    "nickname": [events[0].data.nickname is UNSET, events[1].data.nickname],
    "unknown": [events[2].type_, events[2].data["nickname"]],
    "windows": [
        repr(RateLimitWindow.from_dict({**window, "name": name}).name)
        for name in ("minute", "quarter_hour")
    ],
    "order": repr(Order.from_dict(
        {"id": 1, "petId": 1, "quantity": 1, "shipDate": None, "complete": False,
         "status": "returned"}
    ).status),
    "code": repr(Error.from_dict({"code": "pet_unavailable", "message": "", "status": 409}).code),
    "kept": Pet.from_dict({**pet, "nickname": "", "colour": "brown"}).additional_properties,
    "closed": closed,
}))
"""


def test_the_code_generated_accepts_what_a_later_server_sends(document, tmp_path):
    pet = document["components"]["schemas"]["Pet"]
    pet["properties"]["nickname"] = {"type": "string", "readOnly": True, "x-added-after": "1.0.0"}
    pet["required"].append("nickname")
    path = tmp_path / "openapi.json"
    path.write_text(json.dumps(document))
    checkout = tmp_path / "checkout"
    shutil.copytree(
        ROOT / "clients", checkout / "clients", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copyfile(ROOT / "pyproject.toml", checkout / "pyproject.toml")

    generated = subprocess.run(
        [sys.executable, "clients/generate.py", f"--document={path}", f"--root={checkout}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    parsed = subprocess.run(
        [sys.executable, "-c", PARSE],
        env={"PYTHONPATH": str(checkout / "clients/python/src")},
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert parsed.returncode == 0, parsed.stderr
    assert json.loads(parsed.stdout) == {
        "events": ["PetCreatedEvent", "PetCreatedEvent", "UnknownEvent"],
        "nickname": [True, "Rexy"],
        "unknown": ["pet.renamed", "Rexy"],
        "windows": ["<WindowName.MINUTE: 'minute'>", "'quarter_hour'"],
        "order": "'returned'",
        "code": "'pet_unavailable'",
        "kept": {"colour": "brown"},
        "closed": "refused",
    }
    schema_ts = (checkout / "clients/typescript/src/schema.ts").read_text()
    assert 'name: components["schemas"]["WindowName"] | `${string}`;' in schema_ts
    assert "readonly nickname?: string;" in schema_ts
