"""Fields added to answers within a major version (docs/compatibility.md): optional in the
document, whatever the serializer says, and marked ``x-added-in`` with the release that added
them, so that a client built from this document still reads an answer or an event made before
the field existed (an older server's, an event stored earlier). Which fields those are is read
from the releases kept in ``openapi/releases/``, not declared by hand."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import yaml
from django.conf import settings

ADDED_IN = "x-added-in"

# Each schema's property names, by release.
Properties = dict[str, frozenset[str]]


def _version(path: Path) -> tuple[int, ...]:
    return tuple(int(part) for part in path.stem.split("."))


@functools.cache
def released() -> list[tuple[str, Properties]]:
    """Each kept release's version and its schemas' properties, oldest first."""
    found = []
    for path in sorted((settings.BASE_DIR / "openapi" / "releases").glob("*.yaml"), key=_version):
        document = yaml.load(path.read_text(), Loader=yaml.CSafeLoader)
        schemas = document.get("components", {}).get("schemas", {})
        found.append(
            (path.stem, {name: frozenset(s.get("properties", ())) for name, s in schemas.items()})
        )
    return found


def next_minor(version: str) -> str:
    major, minor, _ = (int(part) for part in version.split("."))
    return f"{major}.{minor + 1}.0"


def mark_added_fields(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: each answer's field (``readOnly``) that the
    major version's first release did not have is left out of ``required`` and marked with the
    release it came in (the next minor one while unreleased). A request's fields are left as
    declared: a new required one is a breaking change the compatibility check must see."""
    version = result["info"]["version"]
    major = version.split(".")[0]
    releases = [(v, props) for v, props in released() if v.split(".")[0] == major]
    if not releases:
        return result
    first = releases[0][1]
    upcoming = next_minor(releases[-1][0])
    for name, schema in result.get("components", {}).get("schemas", {}).items():
        if name not in first:
            continue  # a schema new in this major: all of it is
        for field_name, field in schema.get("properties", {}).items():
            if field_name in first[name] or not field.get("readOnly"):
                continue
            required = [other for other in schema.get("required", []) if other != field_name]
            if required:
                schema["required"] = required
            else:
                schema.pop("required", None)
            came = (v for v, props in releases if field_name in props.get(name, ()))
            field[ADDED_IN] = next(came, upcoming)
    return result
