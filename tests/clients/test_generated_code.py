"""`make lint`'s check on the SDKs' generated code (clients/generate.py --check): the committed
code is what the served document makes, and a document changed by one description is caught."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / ".tools" / "clients" / "typescript" / "node_modules" / ".bin" / "openapi-typescript"


@pytest.fixture
def document(client, db) -> dict[str, Any]:
    if not TOOL.exists():
        pytest.fail(f"{TOOL} is missing: run `make client-tools` (make test does it first).")
    response = client.get("/v1/openapi.json")
    assert response.status_code == HTTPStatus.OK
    return json.loads(response.content)


def check(document: dict[str, Any], where: Path) -> subprocess.CompletedProcess[str]:
    path = where / "openapi.json"
    path.write_text(json.dumps(document))
    return subprocess.run(
        [sys.executable, "clients/generate.py", "--check", f"--document={path}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_committed_code_is_what_the_served_document_makes(document, tmp_path):
    checked = check(document, tmp_path)

    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_a_description_changed_in_the_document_fails_the_check(document, tmp_path):
    document["components"]["schemas"]["NewPet"]["properties"]["name"]["description"] += " Changed."

    checked = check(document, tmp_path)

    assert checked.returncode == 1
    assert checked.stdout.splitlines()[1:] == [
        "  clients/typescript/src/schema.ts",
        "  clients/python/src/petstore_client/generated/models/new_pet.py",
    ]


def test_the_sdks_name_the_documents_servers(document):
    # The served document lists the server it came from too ("This server").
    servers = {
        server["description"].lower(): server["url"]
        for server in document["servers"]
        if server["description"] in ("Production", "Staging")
    }

    for layer in ("typescript/src/index.ts", "python/src/petstore_client/client.py"):
        named = re.findall(
            r'"?(production|staging)"?: "([^"]+)"', (ROOT / "clients" / layer).read_text()
        )
        assert dict(named) == servers, layer
