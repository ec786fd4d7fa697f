"""Schemathesis against a running instance: our own schema, then the public template's."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from apikeys.models import ALL_SCOPES
from tests.reliability.conftest import ROOT

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

SETTINGS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["petstore"]["fuzzing"]
# A copy of shared/reference/gitbook-petstore-openapi.yaml, so that a clone tests on its own.
TEMPLATE = Path(__file__).with_name("data") / "gitbook-petstore-openapi.yaml"


def schemathesis(schema: str, base_url: str, key: str, *options: str) -> str:
    result = subprocess.run(
        [
            str(Path(sys.executable).with_name("st")),
            "run",
            schema,
            "--url",
            base_url,
            "--header",
            f"Authorization: Bearer {key}",
            "--seed",
            str(SETTINGS["seed"]),
            "--max-examples",
            str(SETTINGS["max-examples"]),
            "--max-failures",
            "20",
            *options,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    print(result.stdout[-3000:])
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    return result.stdout


@pytest.fixture
def fuzz_key(make_key, dog, cat, make_pet) -> str:
    for n in range(5):
        make_pet(f"Seed {n}")
    return make_key(plan="enterprise", scopes=list(ALL_SCOPES))


def test_every_operation_answers_as_our_schema_says(two_instances, fuzz_key):
    instance = two_instances[0]

    output = schemathesis(
        f"{instance.url}/v1/openapi.json",
        f"{instance.url}/v1",
        fuzz_key,
        "--checks",
        "all",
        "--exclude-checks",
        ",".join(SETTINGS["exclude-checks"]),
        "--phases",
        ",".join(SETTINGS["phases"]),
    )

    assert "passed" in output


def template_run(base_url: str, key: str, operation_ids: list[str], checks: list[str]) -> str:
    """The public template's operations ``operation_ids``, valid requests only."""
    operations: list[str] = []
    for operation_id in operation_ids:
        operations += ["--include-operation-id", operation_id]
    return schemathesis(
        str(TEMPLATE),
        base_url,
        key,
        "--mode",
        "positive",
        "--checks",
        ",".join(checks),
        # Not the stateful phase here either (pyproject's [tool.petstore.fuzzing] says why).
        "--phases",
        ",".join(SETTINGS["phases"]),
        *operations,
    )


def test_a_client_written_for_the_public_template_gets_answers_it_can_read(two_instances, fuzz_key):
    output = template_run(
        f"{two_instances[1].url}/v1",
        fuzz_key,
        SETTINGS["template-operations"],
        SETTINGS["template-checks"],
    )

    assert "passed" in output


def test_the_templates_create_category_gets_answers_its_clients_can_read(two_instances, fuzz_key):
    checks = [c for c in SETTINGS["template-checks"] if c != "status_code_conformance"]

    output = template_run(
        f"{two_instances[1].url}/v1", fuzz_key, SETTINGS["template-undocumented-refusals"], checks
    )

    assert "passed" in output
