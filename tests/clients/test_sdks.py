"""Both SDKs (docs/design.md#sdks) built and tested against a running service, as a partner
installs them: gunicorn on the test database, Celery's workers delivering a real webhook, and
keys and animals made for each SDK's suite. The TypeScript SDK is built with `npm run build` and
tested with `npm test` (Node's test runner) on its lock's tools; the Python SDK is installed with
`pip install ./clients/python` into a fresh virtual environment and tested with pytest there.
Neither sees the project's environment or code: they get the service's URL, the keys and the
delivery in a JSON file (PETSTORE_SDK_FIXTURES). The two suites run side by side."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest

from apikeys.models import ALL_SCOPES
from deploy.workers import start_workers, stop_workers
from pets.models import Category, Pet
from tests.reliability.conftest import Instance, start_instance
from tests.webhooks.conftest import Receiver, wait_for_a_worker, worker_env

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = ROOT / ".tools" / "clients" / "typescript" / "node_modules"
PYTEST = "pytest==9.2.0"  # the project's, for the SDK's own environment
HYPOTHESIS = "hypothesis==6.170.15"  # the project's, for the verifier's property test
AVAILABLE_IN_CATEGORY = 45
# A build takes a minute at most, a suite too (it waits out one minute's rate limit), on a busy
# machine less than half of this.
SUITE_SECONDS = 420


def made_for(sdk: str, make_key: Callable[..., str], dog: Category) -> dict[str, Any]:
    """A suite's own accounts (so that one's limits never meet another's) and animals."""
    category = Category.objects.create(name=f"Paged by the {sdk} SDK", description="")
    Pet.objects.bulk_create(
        [Pet(name=f"Pet {n}", category=category) for n in range(AVAILABLE_IN_CATEGORY)]
        + [Pet(name=f"Sold {n}", category=category, status="sold") for n in range(5)]
    )
    for_orders = [Pet.objects.create(name=f"{sdk} {n}", category=dog) for n in range(2)]
    return {
        "keys": {
            **{name: make_key() for name in ("paging", "headers", "free", "orders", "errors")},
            "cache": make_key(),
            "resources": make_key(scopes=list(ALL_SCOPES)),  # categories:write too
            "readme": make_key(),
            "readOnly": make_key(scopes=["pets:read"]),
        },
        "categoryId": category.pk,
        "availableInCategory": AVAILABLE_IN_CATEGORY,
        "petIds": [pet.pk for pet in for_orders],
    }


def roomy_for_python(make_key: Callable[..., str]) -> dict[str, Any]:
    """Keys for the Python suite's tests that walk every method (its resources, AsyncPetstore;
    with every scope, createCategory's too) and the README's examples, on Enterprise accounts so
    that none waits out a minute's limit; and a Free key whose minute the async client waits out."""
    every = list(ALL_SCOPES)
    return {
        "roomyKeys": {
            "resources": make_key(plan="enterprise", scopes=every),
            "async": make_key(plan="enterprise", scopes=every),
            "readme": make_key(plan="enterprise"),
        },
        "asyncFreeKey": make_key(),
    }


def delivered(instance: Instance, key: str, receiver: Receiver, dog: Category) -> dict[str, Any]:
    """A webhook as a worker delivered it: its body, headers and the endpoint's secret."""
    endpoint = instance.call(
        "POST", "/v1/webhook_endpoints", key, {"url": receiver.url, "events": ["pet.created"]}
    )
    assert endpoint.status == HTTPStatus.CREATED, endpoint.body
    pet = instance.call("POST", "/v1/pets", key, {"name": "Rex", "categoryId": dog.pk})
    assert pet.status == HTTPStatus.CREATED, pet.body
    receiver.wait_for(lambda received: len(received) >= 1)
    delivery = receiver.received[0]
    assert isinstance(endpoint.body, dict)
    return {
        "body": delivery.body.decode(),
        "headers": delivery.headers,
        "secret": endpoint.body["secret"],
        "receivedAt": int(delivery.at),
    }


def sdk_env(fixtures: Path) -> dict[str, str]:
    """The suites' environment: the machine's, without the project's virtual environment."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in {"VIRTUAL_ENV", "PYTHONPATH", "DJANGO_SETTINGS_MODULE"}
    }
    env["PATH"] = os.pathsep.join(
        part for part in env["PATH"].split(os.pathsep) if not part.startswith(str(ROOT))
    )
    return {**env, "PETSTORE_SDK_FIXTURES": str(fixtures), "NO_UPDATE_NOTIFIER": "1"}


def steps(where: Path) -> dict[str, tuple[Path, str, str]]:
    """Each SDK's folder, its build (or install) and its tests, as shell commands."""
    if shutil.which("npm") is None:
        pytest.fail("npm is missing: install Node.js 20 with npm, then run `make client-tools`.")
    if not NODE_MODULES.exists():
        pytest.fail(f"{NODE_MODULES} is missing: run `make client-tools` (make test does it).")
    package = where / "typescript"
    shutil.copytree(
        ROOT / "clients" / "typescript",
        package,
        ignore=shutil.ignore_patterns("node_modules", "dist", "build"),
    )
    (package / "node_modules").symlink_to(NODE_MODULES, target_is_directory=True)
    venv, sdk = where / "venv", ROOT / "clients" / "python"
    install = (
        f"{sys.executable} -m venv {venv} && {venv}/bin/pip install --quiet "
        f"--disable-pip-version-check {sdk} {PYTEST} {HYPOTHESIS}"
    )
    return {
        "typescript": (package, "npm run build", "npm test"),
        "python": (where, install, f"{venv}/bin/pytest -p no:cacheprovider -q {sdk}/tests"),
    }


def run_all(commands: dict[str, tuple[Path, str]], env: dict[str, str]) -> dict[str, str]:
    """Runs the commands side by side, printing what each printed; the failed ones' output."""
    started = {
        name: subprocess.Popen(
            [
                "bash",
                "-c",
                f'SECONDS=0; {command}; status=$?; echo "({command}: $SECONDS s)"; exit $status',
            ],
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for name, (cwd, command) in commands.items()
    }
    outputs = {}
    for name, process in started.items():
        try:
            outputs[name] = process.communicate(timeout=SUITE_SECONDS)[0]
        except subprocess.TimeoutExpired:
            process.kill()
            outputs[name] = process.communicate()[0] + f"\n(killed after {SUITE_SECONDS} s)"
        print(f"--- {name}\n{outputs[name]}")  # shown with -s, or when the test fails
    return {name: outputs[name] for name, process in started.items() if process.returncode}


def test_both_sdks_pass_their_suites_against_a_running_service(
    make_key, dog, receiver, tmp_path, monkeypatch, settings
):
    monkeypatch.setenv("PETSTORE_WEBHOOK_ALLOW_PRIVATE", "1")  # the receiver is on loopback
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True
    path = tmp_path / "fixtures.json"
    env = sdk_env(path)
    sdks = steps(tmp_path)
    # The builds need no service: they run while it starts.
    with ThreadPoolExecutor(1) as pool:
        building = pool.submit(
            run_all, {name: (cwd, build) for name, (cwd, build, _) in sdks.items()}, env
        )
        instance = start_instance(workers=2)
        workers = start_workers(worker_env(), tmp_path)
        try:
            wait_for_a_worker()
            fixtures = {
                "baseUrl": f"{instance.url}/v1",
                "webhook": delivered(instance, make_key(), receiver, dog),
                "typescript": made_for("TypeScript", make_key, dog),
                "python": made_for("Python", make_key, dog) | roomy_for_python(make_key),
            }
            path.write_text(json.dumps(fixtures))
            failed = building.result()
            if not failed:
                tests = {name: (cwd, test) for name, (cwd, _, test) in sdks.items()}
                failed = run_all(tests, env)
        finally:
            stop_workers(workers)
            instance.process.terminate()
            instance.process.wait(timeout=15)

    assert failed == {}, "\n\n".join(f"{name}:\n{output}" for name, output in failed.items())
