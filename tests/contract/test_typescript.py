"""The served document as a partner's TypeScript developer uses it: openapi-typescript 7 (default
options) generates the types, and tests/typescript/petstore.ts, which calls every operation with
the README's request bodies through openapi-fetch, compiles under `tsc --strict`."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
PROGRAM = ROOT / "tests" / "typescript"
TOOLS = ROOT / ".tools" / "typescript" / "node_modules"
CALL = re.compile(r"client\.(GET|PUT|POST|DELETE|PATCH|HEAD|OPTIONS)\(\s*\"([^\"]+)\"")


@pytest.fixture
def document(client, db) -> dict[str, Any]:
    response = client.get("/v1/openapi.json")
    assert response.status_code == HTTPStatus.OK
    return json.loads(response.content)


def tool(name: str) -> str:
    """A tool the Makefile installs, or the test fails saying how to get it (never skips)."""
    if shutil.which("node") is None:
        pytest.fail("Node.js is missing: install Node.js 20 with npm, then run `make typescript`.")
    path = TOOLS / ".bin" / name
    if not path.exists():
        pytest.fail(f"{path} is missing: run `make typescript` (make test does it first).")
    return str(path)


def compile_program(document: dict[str, Any], where: Path) -> subprocess.CompletedProcess[str]:
    """Generates schema.d.ts from ``document`` beside a copy of the program, then type-checks."""
    (where / "openapi.json").write_text(json.dumps(document))
    for name in ("petstore.ts", "tsconfig.json"):
        shutil.copy(PROGRAM / name, where / name)
    (where / "node_modules").symlink_to(TOOLS, target_is_directory=True)
    env = {**os.environ, "NO_COLOR": "1"}
    generated = subprocess.run(
        [tool("openapi-typescript"), "openapi.json", "--output", "schema.d.ts"],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    return subprocess.run(
        [tool("tsc"), "--strict", "--noEmit", "--pretty", "false", "--project", "."],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )


def test_the_program_compiles_against_the_types_of_the_served_document(document, tmp_path):
    compiled = compile_program(document, tmp_path)

    assert compiled.returncode == 0, compiled.stdout + compiled.stderr


def test_the_program_calls_every_operation_of_the_document(document):
    by_call = {
        (method.upper(), path): operation["operationId"]
        for path, methods in document["paths"].items()
        for method, operation in methods.items()
    }

    calls = set(CALL.findall((PROGRAM / "petstore.ts").read_text()))

    assert calls - set(by_call) == set(), "petstore.ts calls what the document does not have"
    assert set(by_call.values()) - {by_call[call] for call in calls} == set()


def test_the_check_refuses_a_readme_body_that_a_default_makes_incomplete(document, tmp_path):
    # The bug this test exists for (#42): openapi-typescript makes a property with a `default`
    # required in a shared schema, so the README's bodies, which leave these out, stop compiling.
    schemas = document["components"]["schemas"]
    schemas["NewPet"]["properties"]["status"]["default"] = "available"
    schemas["NewCategory"]["properties"]["description"]["default"] = ""

    compiled = compile_program(document, tmp_path)

    assert compiled.returncode != 0
    assert "Property 'status' is missing" in compiled.stdout, compiled.stdout
    assert "Property 'description' is missing" in compiled.stdout, compiled.stdout
