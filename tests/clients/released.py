"""The SDKs as released, built and run against a server: generated from the first release's
document (openapi/releases/) by ``make clients``' own generator, the Python SDK installed into a
fresh virtual environment, the TypeScript SDK built with its lock's tools, and the compatibility
suites of tests/clients/suites run from each, with what the server was given in a JSON file."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pets.models import Category, Pet
from tests.clients.test_sdks import NODE_MODULES, PYTEST, run_all, sdk_env

ROOT = Path(__file__).resolve().parents[2]
RELEASES = ROOT / "openapi" / "releases"
SUITES = Path(__file__).parent / "suites"
ANIMALS = 5


def first_release() -> Path:
    return min(RELEASES.glob("*.yaml"), key=lambda path: tuple(map(int, path.stem.split("."))))


@dataclass
class Released:
    """Where the released SDKs were built: each one's folder and how its suite runs there."""

    where: Path

    @property
    def suites(self) -> dict[str, tuple[Path, str]]:
        venv = self.where / "venv"
        return {
            "typescript": (self.where / "typescript", "node --test build/compat.test.js"),
            "python": (self.where / "suite", f"{venv}/bin/pytest -p no:cacheprovider -q ."),
        }


def build(where: Path) -> Released:
    """Both SDKs generated from the first release's document, with today's layer and generator,
    built as a partner installs them, their compatibility suites beside them."""
    if shutil.which("npm") is None or not NODE_MODULES.exists():
        pytest.fail(f"npm or {NODE_MODULES} is missing: run `make client-tools`.")
    checkout = where / "checkout"
    ignored = shutil.ignore_patterns("node_modules", "dist", "build", "__pycache__")
    shutil.copytree(ROOT / "clients", checkout / "clients", ignore=ignored)
    shutil.copyfile(ROOT / "pyproject.toml", checkout / "pyproject.toml")
    generated = subprocess.run(
        [
            sys.executable,
            "clients/generate.py",
            f"--document={first_release()}",
            f"--root={checkout}",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    package = where / "typescript"
    shutil.copytree(checkout / "clients" / "typescript", package)
    (package / "node_modules").symlink_to(NODE_MODULES, target_is_directory=True)
    shutil.copyfile(SUITES / "compat.test.ts", package / "test" / "compat.test.ts")
    (where / "suite").mkdir()
    shutil.copyfile(SUITES / "compat.py", where / "suite" / "test_compat.py")
    venv, tsc = where / "venv", "node_modules/.bin/tsc --project"
    failed = run_all(
        {
            "typescript": (package, f"{tsc} tsconfig.json && {tsc} tsconfig.test.json"),
            "python": (
                where,
                f"{sys.executable} -m venv {venv} && {venv}/bin/pip install --quiet "
                f"--disable-pip-version-check {checkout / 'clients' / 'python'} {PYTEST}",
            ),
        },
        sdk_env(where / "no-fixtures.json"),
    )
    assert failed == {}, "\n\n".join(f"{name}:\n{output}" for name, output in failed.items())
    return Released(where)


def made_for(sdk: str, make_key: Callable[..., str], dog: Category) -> dict[str, Any]:
    """A suite's own key (roomy limits, all scopes) and animals: some to page through, two to
    order, and a category to add to."""
    category = Category.objects.create(name=f"Paged by the released {sdk} SDK", description="")
    Pet.objects.bulk_create([Pet(name=f"Pet {n}", category=category) for n in range(ANIMALS)])
    for_orders = [Pet.objects.create(name=f"{sdk} {n}", category=dog) for n in range(2)]
    return {
        "key": make_key(plan="enterprise"),
        "categoryId": category.pk,
        "animals": ANIMALS,
        "petIds": [pet.pk for pet in for_orders],
        "addTo": dog.pk,
    }


def run_suites(
    released: Released, path: Path, base_url: str, added: dict[str, Any], made: dict[str, Any]
) -> dict[str, str]:
    """Both compatibility suites, side by side, against ``base_url``, given what they need in
    the JSON file ``path``; the failed ones' output. ``added``: what the server adds to the
    release (its windows, its event types seen in the feed, the fields Pet and UsageDay
    gained, a refused order's code); ``made``: each suite's key and animals (``made_for``)."""
    path.write_text(json.dumps({"baseUrl": base_url, "added": added, **made}))
    return run_all(released.suites, sdk_env(path))
