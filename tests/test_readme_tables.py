"""What the README and docs/ list by hand follows the OpenAPI document and the tables, both ways:
the API table names every operation, the scopes table gives each its scope, the events section
names every type of ``events.types``, and docs/layout.md names each type beside the app that
writes it; none of them names an operation or a type that is not there."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from events.types import EVENT_TYPES, EventType
from petstore.scopes import Scope

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
DOCS = {path.name: path.read_text() for path in sorted((ROOT / "docs").glob("*.md"))}
NAMED = re.compile(r"`([^`]+)`")


@pytest.fixture(scope="module")
def operations() -> dict[str, dict[str, Any]]:
    """Each operation of the document, by its id."""
    document = SchemaGenerator().get_schema(request=None, public=True)
    return {
        operation["operationId"]: operation
        for methods in document["paths"].values()
        for operation in methods.values()
    }


def section(text: str, heading: str) -> str:
    """The text under ``heading`` up to the next heading of its level or above."""
    level = len(heading) - len(heading.lstrip("#"))
    start = text.index(f"\n{heading}\n")
    following = re.compile(rf"^#{{1,{level}}} ", re.MULTILINE).search(
        text, start + len(heading) + 2
    )
    return text[start : following.start() if following else len(text)]


def table(text: str, header: str) -> list[list[str]]:
    """The rows, as cells, of the first table in ``text`` whose header row starts ``header``."""
    lines = text[text.index(header) :].splitlines()
    rows = itertools.takewhile(lambda line: line.startswith("|"), lines[2:])
    return [[cell.strip() for cell in row.strip().strip("|").split("|")] for row in rows]


def event_types_named(text: str) -> set[str]:
    """What ``text`` names in the form of an event type: a prefix of the table's, a dot, a word."""
    prefixes = "|".join(sorted({kind.split(".")[0] for kind in EVENT_TYPES}))
    return set(re.findall(rf"(?<![\w./-])((?:{prefixes})\.[a-z_]+)\b", text))


def test_the_api_table_names_every_operation_and_no_other(operations):
    rows = table(section(README, "## The API"), "| Method and path | Operation |")
    listed = [name for row in rows for name in NAMED.findall(row[1])]

    assert sorted(listed) == sorted(operations)


def test_the_scopes_table_gives_each_operation_its_scope(operations):
    rows = table(section(README, "### Keys"), "| Scope | Operations |")
    listed: dict[str, str | None] = {}
    for scopes_cell, operations_cell in rows:
        scopes = [name for name in NAMED.findall(scopes_cell) if name in Scope.values]
        groups = operations_cell.split(";")
        if len(scopes) > 1:  # `a`, `b`: the operations of each, in its order, between semicolons
            assert len(groups) == len(scopes), scopes_cell
        for n, group in enumerate(groups):
            scope = scopes[min(n, len(scopes) - 1)] if scopes else None
            for name in NAMED.findall(group):
                assert name not in listed, f"{name} is listed twice"
                listed[name] = scope
    documented = {
        name: (operation["x-required-scopes"] or [None])[0]
        for name, operation in operations.items()
    }

    assert listed == documented
    assert {scope for scope in listed.values() if scope} == set(Scope.values)


def test_the_readme_names_every_event_type():
    events = section(README, "### Events and webhooks")

    assert set(EVENT_TYPES) <= event_types_named(events)


def test_no_text_names_an_event_type_or_an_operation_there_is_not(operations):
    verbs = "|".join(sorted({re.split(r"(?=[A-Z])", name)[0] for name in operations}))
    for name, text in {"README.md": README, **DOCS}.items():
        assert event_types_named(text) <= set(EVENT_TYPES), name
        named = set(re.findall(rf"`((?:{verbs})[A-Z]\w*)`", text))
        assert named <= set(operations), name


def test_the_layout_names_each_type_beside_the_app_that_writes_it():
    tree = DOCS["layout.md"].split("```\n", 1)[1].split("```", 1)[0]
    blocks = re.split(r"^(?=\w+/ )", tree, flags=re.MULTILINE)
    named = {block.split("/", 1)[0]: event_types_named(block) for block in blocks if block}
    # Each app writes its own types (its events.py; a new animal's pet.created is pets.insert's);
    # the events app's table and examples name them all without writing any.
    written: dict[str, set[str]] = {}
    for module in sorted(ROOT.glob("*/*.py")):
        if module.parent.name in ("events", "tests"):
            continue
        members = re.findall(r"\bEventType\.([A-Z_]+)\b", module.read_text())
        if members:
            written.setdefault(module.parent.name, set()).update(
                EventType[member].value for member in members
            )

    assert {app: kinds for app, kinds in named.items() if kinds} == written
    assert set().union(*written.values()) == set(EVENT_TYPES)
