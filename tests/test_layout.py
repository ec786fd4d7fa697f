"""The code's layout keeps its arrows pointing one way: the project package (settings, errors,
the shared plumbing) imports none of the apps it serves, and no two modules import each other,
however indirectly."""

from __future__ import annotations

import ast
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# bench and deploy too: the benchmark's phases share bench.environment, never bench.run.
PACKAGES = ("petstore", "apikeys", "pets", "store", "bench", "deploy")
APPS = ("apikeys", "pets", "store")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources() -> dict[str, Path]:
    return {
        module_name(path): path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    }


def imports(path: Path, known: set[str]) -> set[str]:
    """The project's modules ``path`` imports, at its top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        found |= {name for name in names if name in known}
    return found


def graph() -> dict[str, set[str]]:
    modules = sources()
    known = set(modules)
    return {name: imports(path, known) - {name} for name, path in modules.items()}


def test_the_project_package_imports_none_of_its_apps():
    offending = {
        module: sorted(target for target in targets if target.split(".")[0] in APPS)
        for module, targets in graph().items()
        if module.split(".")[0] == "petstore"
    }

    assert {module: targets for module, targets in offending.items() if targets} == {}


def test_no_modules_import_each_other():
    edges = graph()
    cycles = []
    state: dict[str, str] = {}

    def visit(module: str, trail: list[str]) -> None:
        state[module] = "open"
        for target in sorted(edges.get(module, ())):
            if state.get(target) == "open":
                cycles.append([*trail[trail.index(target) :], target])
            elif target not in state:
                visit(target, [*trail, target])
        state[module] = "done"

    for module in sorted(edges):
        if module not in state:
            visit(module, [module])

    assert cycles == []


def test_no_module_is_over_400_lines():
    """A module a reader can hold in mind: past 400 lines, it is split along its concerns."""
    # mutants/: make mutate's copy of the tree, each function beside its mutated versions.
    skipped = {"migrations", "tests", "node_modules", "__pycache__", "mutants"}
    # The Python SDK's generated code is the generator's, one module per operation, never
    # edited by hand (clients/generate.py rewrites it and `make lint` holds it to the document).
    generated = ROOT / "clients" / "python" / "src" / "petstore_client" / "generated"
    long = {}
    for folder, folders, files in os.walk(ROOT):
        # Hidden folders hold environments and tools (.venv, bench/.venv-production, .tools).
        folders[:] = [f for f in folders if f not in skipped and not f.startswith(".")]
        if Path(folder) == generated:
            folders[:] = []
            continue
        for name in files:
            path = Path(folder, name)
            if name.endswith(".py") and (lines := len(path.read_text().splitlines())) > 400:
                long[str(path.relative_to(ROOT))] = lines

    assert long == {}
