"""The SDKs as released (tests/clients/released.py: from the first release's document, by
``make clients``' generator) keep working against every later 1.x, as docs/compatibility.md
promises: their compatibility suites pass against today's server, and against a server that adds
a window, an event type, a field on Pet (with events stored before it) and an error code
(tests/clients/future), run in a process of its own under those settings."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from apikeys.windows import WINDOWS
from pets.services import pet_create
from tests.clients.released import Released, build, made_for, run_suites
from tests.reliability.conftest import start_instance

ROOT = Path(__file__).resolve().parents[2]
AGAINST_IT = Path(__file__).parent / "future" / "against_it.py"
NOTHING_ADDED = {
    "windows": [window.name for window in WINDOWS],
    "eventTypes": ["pet.created"],
    # Release 1.1.0's breed, which the SDKs built from 1.0.0 do not know.
    "petFields": ["breed"],
    "usageFields": [],
    "conflictCode": "conflict",
}


@pytest.fixture(scope="module")
def released(tmp_path_factory: pytest.TempPathFactory) -> Released:
    return build(tmp_path_factory.mktemp("released"))


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_released_sdks_pass_against_todays_server(released, make_key, dog, tmp_path):
    pet_create(name="Rex", category_id=dog.pk)
    made = {sdk: made_for(sdk, make_key, dog) for sdk in ("python", "typescript")}
    instance = start_instance()
    try:
        failed = run_suites(
            released, tmp_path / "fixtures.json", f"{instance.url}/v1", NOTHING_ADDED, made
        )
    finally:
        instance.process.terminate()
        instance.process.wait(timeout=15)

    assert failed == {}, "\n\n".join(f"{name}:\n{output}" for name, output in failed.items())


def test_the_released_sdks_pass_against_a_server_with_every_addition(released):
    checks = len(re.findall(r"^def test_", AGAINST_IT.read_text(), re.MULTILINE))

    ran = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            str(AGAINST_IT.relative_to(ROOT)),
            "--ds=tests.clients.future.settings",
            "--create-db",
            "-p",
            "no:cacheprovider",
            "-q",
        ],
        cwd=ROOT,
        env={**os.environ, "PETSTORE_RELEASED_SDKS": str(released.where)},
        capture_output=True,
        text=True,
        timeout=600,
    )

    assert ran.returncode == 0, ran.stdout[-8000:] + ran.stderr[-2000:]
    assert f"{checks} passed" in ran.stdout
