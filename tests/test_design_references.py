"""The design is in the repository: every citation of it, in code, configuration, docs and the
SDKs, names a section of docs/design.md (``docs/design.md#<anchor>``, the anchor GitHub makes
of its heading), and nothing cites a design the repository does not hold (a numbered section of
a document elsewhere)."""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DESIGN = ROOT / "docs" / "design.md"
# What is installed, built or cached: not the project's own text.
NOT_OURS = {
    ".git",
    ".venv",
    ".tools",
    ".queue",
    ".schemathesis",
    ".import_linter_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    "__pycache__",
    "node_modules",
    "dist",
    "build",
    "staticfiles",
    "mutants",  # make mutate's copy of the tree
}
CITATION = re.compile(r"design\.md#([\w-]+)")
WITHIN_DESIGN = re.compile(r"\]\(#([\w-]+)\)")
# A section cited by number, or the brief the service was built from, which is not in the tree.
ELSEWHERE = re.compile(
    r"DESIGN\.md|(?i:\bdesign(?:\.md)?\s*§)|(?i:§\s*\d[\d.]*\s+of\s+the\s+design)"
)
FENCE = re.compile(r"^(```|~~~)")


def anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    kept = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return kept.replace(" ", "-")


def anchors(design: str) -> set[str]:
    """Every heading's anchor, a repeated heading's with GitHub's ``-1``, ``-2``…"""
    found: set[str] = set()
    fenced = False
    for line in design.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        heading = re.match(r"#{1,6}\s+(.+?)\s*#*\s*$", line)
        if fenced or not heading:
            continue
        name, n = anchor(heading[1]), 1
        while name in found:
            name, n = f"{anchor(heading[1])}-{n}", n + 1
        found.add(name)
    return found


def texts(root: Path) -> dict[Path, str]:
    """The project's text files under ``root`` (binary files and what is not ours left out)."""
    found: dict[Path, str] = {}
    for folder, folders, files in os.walk(root):
        folders[:] = [name for name in folders if name not in NOT_OURS]
        for name in files:
            path = Path(folder, name)
            if not path.is_file():
                continue  # a link to nothing
            data = path.read_bytes()
            if b"\0" not in data:
                found[path.relative_to(root)] = data.decode("utf-8", errors="replace")
    return found


def dangling(root: Path, design: Path) -> list[str]:
    """Each citation under ``root`` that names no section of ``design``, as ``path:line: why``."""
    sections = anchors(design.read_text())
    this = Path(__file__).resolve()
    wrong: list[str] = []
    for path, text in texts(root).items():
        if root / path == this:
            continue  # its patterns and messages are not citations
        for number, line in enumerate(text.splitlines(), start=1):
            cited = CITATION.findall(line)
            if root / path == design:
                cited += WITHIN_DESIGN.findall(line)
            wrong += [
                f"{path}:{number}: no section #{name} in {design.name}"
                for name in cited
                if name not in sections
            ]
            wrong += [
                f"{path}:{number}: {found.group()!r} cites a design outside the repository; "
                f"cite {design.name}#<section>"
                for found in ELSEWHERE.finditer(line)
            ]
    return wrong


def test_every_citation_names_a_section_of_the_design():
    assert dangling(ROOT, DESIGN) == []


def test_the_code_cites_the_design():
    cited = {path for path, text in texts(ROOT).items() if CITATION.search(text)}
    # The scan reads code, configuration and docs alike: a walk that missed them would pass.
    assert {Path("Makefile"), Path("pyproject.toml"), Path("staff/__init__.py")} <= cited
    assert Path("clients/typescript/src/transport.ts") in cited
    assert Path("docs/webhooks.md") in cited


def test_a_dangling_citation_is_found(tmp_path: Path):
    design = tmp_path / "docs" / "design.md"
    design.parent.mkdir()
    design.write_text(
        "# The design\n\n## Partners' webhooks\n\n```\n## Not a heading\n```\n\n"
        "## Staff\n\n## Staff\n\nSee [below](#staff-1) and [nowhere](#nowhere).\n"
    )
    (tmp_path / "app.py").write_text(
        '"""Cites docs/design.md#partners-webhooks, docs/design.md#staff and\n'
        'docs/design.md#not-a-heading."""\n'
    )
    (tmp_path / "old.md").write_text("As DESIGN §14 says, and §10.1 of the design.\n")
    (tmp_path / "Makefile").write_text("# From ../DESIGN.md and docs/design.md §Staff.\n")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "vendored.js").write_text("// DESIGN §1\n")

    found = dangling(tmp_path, design)

    outside = "cites a design outside the repository; cite design.md#<section>"
    assert sorted(found) == sorted(
        [
            "app.py:2: no section #not-a-heading in design.md",
            "docs/design.md:13: no section #nowhere in design.md",
            f"old.md:1: 'DESIGN §' {outside}",
            f"old.md:1: '§10.1 of the design' {outside}",
            f"Makefile:1: 'DESIGN.md' {outside}",
            f"Makefile:1: 'design.md §' {outside}",
        ]
    )


def test_anchors_are_githubs():
    assert anchor("Partners' webhooks") == "partners-webhooks"
    assert anchor("Conditional GETs") == "conditional-gets"
    assert anchor("Keys and scopes") == "keys-and-scopes"
