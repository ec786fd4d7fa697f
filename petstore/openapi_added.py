"""The fields a type gained after a release, marked in the document (docs/compatibility.md,
"Fields added after a release"): ``x-added-after: <version>`` names the last release whose type
had no such field, read from the releases' documents in ``openapi/releases/``. An event stored
before the field was added has none, so a client must accept its absence, and the SDKs'
generators read the mark (clients/generator_input.py). Nobody declares it: a field is marked
from the moment it is added, and keeps the mark through every later release."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml
from django.conf import settings

ADDED_AFTER = "x-added-after"


def mark_added_fields(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook; see the module docstring."""
    schemas = result.get("components", {}).get("schemas", {})
    for (name, field), version in added_fields(schemas, released_schemas()).items():
        schemas[name]["properties"][field][ADDED_AFTER] = version
    return result


def added_fields(
    schemas: dict[str, Any], releases: list[tuple[str, dict[str, Any]]]
) -> dict[tuple[str, str], str]:
    """Each (type, field) of ``schemas`` that some release's same type lacked, with the last
    such release; ``releases`` are (version, the document's schemas), oldest first. A type no
    release has is new as a whole: none of its fields is marked."""
    added = {}
    for name, schema in schemas.items():
        for field in schema.get("properties", {}):
            lacking = [
                version
                for version, released in releases
                if name in released and field not in released[name].get("properties", {})
            ]
            if lacking:
                added[(name, field)] = lacking[-1]
    return added


@cache
def released_schemas() -> list[tuple[str, dict[str, Any]]]:
    """The releases' schemas, oldest first, read once per process."""
    folder = Path(settings.BASE_DIR) / "openapi" / "releases"
    versions = sorted(
        (path.stem for path in folder.glob("*.yaml")),
        key=lambda version: tuple(int(part) for part in version.split(".")),
    )
    return [
        (
            version,
            yaml.load((folder / f"{version}.yaml").read_text(), Loader=yaml.CSafeLoader)[
                "components"
            ]["schemas"],
        )
        for version in versions
    ]
