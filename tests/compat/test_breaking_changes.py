"""The compatibility promise is enforced: openapi/compare.py (what `make lint` runs) refuses each
change that breaks a client of the latest release and lets each additive one through, by running
Optic's real CLI on a copy of the release document edited one way; and the README's list of
closed enums is what the document marks."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from collections.abc import Callable
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
import yaml

from petstore.openapi import CLOSED_ENUM

ROOT = Path(__file__).resolve().parent.parent.parent
RELEASE = ROOT / "openapi" / "releases" / "1.0.0.yaml"
COMPARE = ROOT / "openapi" / "compare.py"

Document = dict[str, Any]


@pytest.fixture(autouse=True)
def _optic() -> None:
    if not (ROOT / ".tools" / "compat" / "node_modules" / ".bin" / "optic").exists():
        pytest.fail("Optic is missing: run `make compat-tools` (make test does it first).")


def schemas(document: Document) -> dict[str, Any]:
    return document["components"]["schemas"]


def parameter(document: Document, path: str, method: str, name: str) -> dict[str, Any]:
    operation = document["paths"][path][method]
    return next(p for p in operation["parameters"] if p["name"] == name)


def remove_answer_field(document: Document) -> None:
    pet = schemas(document)["Pet"]
    del pet["properties"]["name"]
    pet["required"].remove("name")


def require_new_request_field(document: Document) -> None:
    new_pet = schemas(document)["NewPet"]
    new_pet["properties"]["breed"] = {"type": "string", "maxLength": 100}
    new_pet["required"].append("breed")


def narrow_closed_request_enum(document: Document) -> None:
    parameter(document, "/pets", "get", "status")["schema"]["enum"].remove("sold")


def narrow_open_enum_a_request_takes(document: Document) -> None:
    schemas(document)["EventType"]["enum"].remove("usage.threshold")


def remove_operation(document: Document) -> None:
    del document["paths"]["/categories/{categoryId}"]["get"]


def grow_closed_enum(document: Document) -> None:
    schemas(document)["PetStatus"]["enum"].append("adopted")


def add_optional_field(document: Document) -> None:
    breed = {"type": "string", "maxLength": 100, "nullable": True}
    schemas(document)["Pet"]["properties"]["breed"] = breed
    schemas(document)["NewPet"]["properties"]["breed"] = dict(breed)


def add_operation(document: Document) -> None:
    update = copy.deepcopy(document["paths"]["/categories/{categoryId}"]["get"])
    update["operationId"] = "updateCategory"
    update["requestBody"] = copy.deepcopy(document["paths"]["/categories"]["post"]["requestBody"])
    document["paths"]["/categories/{categoryId}"]["patch"] = update


def add_open_enum_values(document: Document) -> None:
    schemas(document)["WindowName"]["enum"].append("hour")
    schemas(document)["OrderStatus"]["enum"].append("returned")
    schemas(document)["ErrorCode"]["enum"].append("quota_exhausted")


def compare(tmp_path: Path, change: Callable[[Document], None]) -> subprocess.CompletedProcess:
    document = yaml.load(RELEASE.read_text(), Loader=yaml.CSafeLoader)
    change(document)
    today = tmp_path / "today.json"
    today.write_text(json.dumps(document))
    return subprocess.run(
        [sys.executable, str(COMPARE), str(today), "--release", str(RELEASE)],
        capture_output=True,
        text=True,
        timeout=120,
    )


# Each breaking change, with what Optic's report must name: the operation and the field.
BREAKING = {
    "removed answer field": (remove_answer_field, "GET /pets/{petId}", "'name'"),
    "new required request field": (require_new_request_field, "POST /pets", "breed"),
    "narrowed request enum": (narrow_closed_request_enum, "GET /pets", "'sold'"),
    "narrowed open enum a request takes": (
        narrow_open_enum_a_request_takes,
        "POST /webhook_endpoints/{endpointId}/test",
        "'usage.threshold'",
    ),
    "removed operation": (remove_operation, "GET /categories/{categoryId}", "removed"),
    "closed enum grew": (grow_closed_enum, "GET /pets/{petId}", "'adopted'"),
}


@pytest.mark.parametrize("name", BREAKING)
def test_a_breaking_change_fails_naming_the_operation_and_the_field(tmp_path: Path, name: str):
    change, operation, field = BREAKING[name]

    verdict = compare(tmp_path, change)

    assert verdict.returncode != 0, verdict.stdout
    report = verdict.stdout
    assert "Breaking changes against release 1.0.0" in report
    assert f"x {operation}:" in report, report
    assert field in report, report


ADDITIVE = {
    "added optional field": add_optional_field,
    "added operation": add_operation,
    "added values of open enums": add_open_enum_values,
}


@pytest.mark.parametrize("name", ADDITIVE)
def test_an_additive_change_passes(tmp_path: Path, name: str):
    verdict = compare(tmp_path, ADDITIVE[name])

    assert verdict.returncode == 0, verdict.stdout + verdict.stderr
    assert "Breaking changes" not in verdict.stdout
    assert "changed" in verdict.stdout or "added" in verdict.stdout  # Optic saw the change


def closed_in(document: Document) -> set[str]:
    """Each enum the document marks closed: a schema by name, a parameter as
    ``operationId?name``."""
    closed = {name for name, schema in schemas(document).items() if schema.get(CLOSED_ENUM)}
    for operations in document["paths"].values():
        for operation in operations.values():
            for each in operation.get("parameters", []):
                if each.get("schema", {}).get(CLOSED_ENUM):
                    closed.add(f"{operation['operationId']}?{each['name']}")
    return closed


def closed_in_readme() -> set[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Compatibility", 1)[1].split("\n## ", 1)[0]
    listed = section.split("Closed enums", 1)[1].split("\n\n", 2)[1]
    # Each bullet names its enums before its colon.
    names = [line.split(":", 1)[0] for line in listed.splitlines() if line.startswith("- ")]
    return {name for line in names for name in re.findall(r"`([^`]+)`", line)}


def test_the_readmes_closed_enums_are_those_the_document_marks(client, db):
    response = client.get("/v1/openapi.json")
    assert response.status_code == HTTPStatus.OK
    served = json.loads(response.content)

    assert closed_in_readme() == closed_in(served)
    # An enum the release closed stays closed (opening it would let it grow).
    assert closed_in(yaml.safe_load(RELEASE.read_text())) <= closed_in(served)


def test_each_release_is_named_by_its_version():
    for release in (ROOT / "openapi" / "releases").glob("*.yaml"):
        assert yaml.safe_load(release.read_text())["info"]["version"] == release.stem


def test_todays_document_keeps_the_latest_releases_promise(client, db, tmp_path: Path):
    response = client.get("/v1/openapi.json")
    assert response.status_code == HTTPStatus.OK
    today = tmp_path / "today.json"
    today.write_bytes(response.content)

    verdict = subprocess.run(
        [sys.executable, str(COMPARE), str(today)], capture_output=True, text=True, timeout=120
    )

    assert verdict.returncode == 0, verdict.stdout + verdict.stderr
