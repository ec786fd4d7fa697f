"""Compare an OpenAPI document with the latest release's (openapi/releases/) through Optic's
breaking-change rules, and exit non-zero on a change that would break a client of the release:
``make lint`` runs it on today's document (docs/compatibility.md).

Optic counts every new value of an enum in an answer as breaking; our promise counts it so only
for closed enums (``x-enum-closed``). So, before Optic compares, each open enum of the release
is given the values the same enum has in the new document: a new value of an open enum is then
no change at all, while a value removed from an enum a request takes is still refused."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml
from release import releases  # beside this script, as Python runs it

ROOT = Path(__file__).resolve().parent.parent
RELEASES = ROOT / "openapi" / "releases"
OPTIC = ROOT / ".tools" / "compat" / "node_modules" / ".bin" / "optic"
CLOSED_ENUM = "x-enum-closed"  # petstore.openapi.CLOSED_ENUM: this script imports no Django


def latest_release() -> Path:
    """The release document with the highest version number."""
    return RELEASES / f"{releases(ROOT)[-1]}.yaml"


def widen_open_enums(release: Any, today: Any) -> None:
    """Give each open enum of ``release`` the values of the enum at the same place in
    ``today``, keeping the release's own."""
    if isinstance(release, dict) and isinstance(today, dict):
        both = isinstance(release.get("enum"), list) and isinstance(today.get("enum"), list)
        if both and not release.get(CLOSED_ENUM):
            added = [value for value in today["enum"] if value not in release["enum"]]
            release["enum"] = [*release["enum"], *added]
        for key, value in release.items():
            if key in today:
                widen_open_enums(value, today[key])
    elif isinstance(release, list) and isinstance(today, list):
        named = {_name(item): item for item in today if _name(item)}
        for index, before in enumerate(release):
            if _name(before):
                widen_open_enums(before, named.get(_name(before)))
            elif index < len(today):
                widen_open_enums(before, today[index])


def _name(item: Any) -> tuple[str, str] | None:
    """A parameter's identity (its name and where it goes), whatever its place in the list."""
    if isinstance(item, dict) and "name" in item and "in" in item:
        return (item["name"], item["in"])
    return None


def compare(release_path: Path, today_path: Path) -> subprocess.CompletedProcess[str]:
    """Optic's verdict on ``today_path`` as the successor of ``release_path``."""
    release = yaml.load(release_path.read_text(), Loader=yaml.CSafeLoader)
    today = yaml.load(today_path.read_text(), Loader=yaml.CSafeLoader)
    widen_open_enums(release, today)
    with tempfile.TemporaryDirectory() as directory:
        before = Path(directory) / f"release-{release_path.stem}.json"
        after = Path(directory) / "today.json"
        before.write_text(json.dumps(release, indent=1))
        after.write_text(json.dumps(today, indent=1))
        return subprocess.run(
            [str(OPTIC), "diff", str(before), str(after), "--check"],
            capture_output=True,
            text=True,
            cwd=directory,
            env={**os.environ, "OPTIC_TELEMETRY_LEVEL": "off", "NO_COLOR": "1"},
            timeout=120,
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("today", type=Path, help="the document to check")
    parser.add_argument("--release", type=Path, help="the release to compare with (the latest)")
    arguments = parser.parse_args()
    if not OPTIC.exists():
        print(f"{OPTIC} is missing: run `make compat-tools` (npm).", file=sys.stderr)
        return 2
    release = arguments.release or latest_release()
    verdict = compare(release, arguments.today)
    print(verdict.stdout, end="")
    print(verdict.stderr, end="", file=sys.stderr)
    if verdict.returncode != 0:
        print(f"Breaking changes against release {release.stem} (docs/compatibility.md).")
    return verdict.returncode


if __name__ == "__main__":
    sys.exit(main())
