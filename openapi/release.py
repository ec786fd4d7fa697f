"""One version, one changelog: the API's version is the project's (``pyproject.toml``), each
release's document is kept in ``openapi/releases/``, and ``CHANGELOG.md`` says what each changed.

    python openapi/release.py check TODAY.yaml    (make lint)
    python openapi/release.py cut 1.1.0            (make release VERSION=1.1.0, which then writes
                                                    the release's document and stamps the SDKs)

``check`` fails when the version is not the latest release's, when a release has no section in
the changelog, or when today's document differs from the latest release's while the changelog's
"Unreleased" section lists nothing. ``cut`` moves the "Unreleased" entries under the new version
and today's date and sets the version; it refuses a version that does not follow the latest, and
a release with nothing in it. It imports no Django (docs/compatibility.md, "Cutting a release").
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from datetime import date
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
UNRELEASED = "## Unreleased"
NOTHING_YET = "Nothing yet."
VERSION = re.compile(r"^\d+\.\d+\.\d+$")
VERSION_LINE = re.compile(r'^version = "[^"]*"', re.M)


def parse(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def releases(root: Path) -> list[str]:
    """The released versions, oldest first."""
    return sorted((path.stem for path in (root / "openapi/releases").glob("*.yaml")), key=parse)


def project_version(root: Path) -> str:
    with (root / "pyproject.toml").open("rb") as file:
        return str(tomllib.load(file)["project"]["version"])


def section(changelog: str, heading: str) -> str | None:
    """The text under the changelog's ``heading`` (a ``## `` line), up to the next one."""
    start = changelog.find(f"\n{heading}\n")
    if start < 0:
        return None
    body = changelog[start + len(heading) + 2 :]
    return body.split("\n## ", 1)[0]


def unreleased_entries(changelog: str) -> list[str]:
    """The entries of the "Unreleased" section: its list items."""
    body = section(changelog, UNRELEASED) or ""
    return [line for line in body.splitlines() if line.startswith("- ")]


def problems(root: Path, today: Path) -> list[str]:
    """What is out of step between the version, the releases, the changelog and ``today``."""
    found = []
    released = releases(root)
    version = project_version(root)
    changelog = (root / "CHANGELOG.md").read_text()
    if version != released[-1]:
        found.append(
            f"pyproject.toml's version is {version}, the latest release {released[-1]}: "
            "the version changes only by `make release`."
        )
    for release in released:
        if not re.search(rf"^## {re.escape(release)} \(", changelog, re.M):
            found.append(f"CHANGELOG.md has no section for release {release}.")
    if section(changelog, UNRELEASED) is None:
        found.append(f'CHANGELOG.md has no "{UNRELEASED}" section.')
    latest = yaml.load(
        (root / "openapi/releases" / f"{released[-1]}.yaml").read_text(), yaml.CSafeLoader
    )
    if yaml.load(today.read_text(), yaml.CSafeLoader) != latest and not unreleased_entries(
        changelog
    ):
        found.append(
            f"The document differs from release {released[-1]}'s, and CHANGELOG.md's "
            '"Unreleased" section lists nothing: say what changed for partners there.'
        )
    return found


def cut(root: Path, version: str, on: date) -> None:
    """Move the changelog's "Unreleased" entries under ``version`` and set the version."""
    latest = releases(root)[-1]
    if not VERSION.match(version) or parse(version) <= parse(latest):
        sys.exit(f"{version!r} does not follow the latest release, {latest} (x.y.z).")
    changelog_path = root / "CHANGELOG.md"
    changelog = changelog_path.read_text()
    if not unreleased_entries(changelog):
        sys.exit('CHANGELOG.md\'s "Unreleased" section lists nothing to release.')
    heading = f"## {version} ({on.isoformat()})"
    changelog = changelog.replace(
        f"\n{UNRELEASED}\n", f"\n{UNRELEASED}\n\n{NOTHING_YET}\n\n{heading}\n", 1
    )
    changelog_path.write_text(changelog)
    pyproject = root / "pyproject.toml"
    pyproject.write_text(VERSION_LINE.sub(f'version = "{version}"', pyproject.read_text(), 1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("check").add_argument("today", type=Path, help="today's document")
    commands.add_parser("cut").add_argument("version", help="the new release's, x.y.z")
    arguments = parser.parse_args()
    if arguments.command == "cut":
        cut(arguments.root, arguments.version, date.today())
        return 0
    found = problems(arguments.root, arguments.today)
    for problem in found:
        print(problem, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
