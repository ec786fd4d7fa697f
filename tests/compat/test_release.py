"""One version, one changelog: openapi/release.py (what `make lint` and `make release` run) on a
copy of the files it reads, and clients/generate.py stamping the SDKs with the one version."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from datetime import date
from pathlib import Path
from types import ModuleType

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent.parent
ADDED = "### Added\n\n- `breed` on Pet.\n"


def script(path: str) -> ModuleType:
    """One of the repository's scripts, which are not in a package, as a module: loaded as
    Python runs a script, its own folder first on the path, for the modules beside it."""
    folder = str((ROOT / path).parent)
    spec = importlib.util.spec_from_file_location(Path(path).stem, ROOT / path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, folder)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(folder)
    return module


def release_tool() -> ModuleType:
    return script("openapi/release.py")


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """The files the tool reads, copied as the repository holds them, but that the changelog's
    "Unreleased" section lists nothing, as right after a release (the repository's may list
    what is under way)."""
    shutil.copyfile(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    changelog = (ROOT / "CHANGELOG.md").read_text()
    under_way = release_tool().section(changelog, "## Unreleased")
    assert under_way is not None
    (tmp_path / "CHANGELOG.md").write_text(
        changelog.replace(f"## Unreleased\n{under_way}", "## Unreleased\n\nNothing yet.\n", 1)
    )
    shutil.copytree(ROOT / "openapi" / "releases", tmp_path / "openapi" / "releases")
    return tmp_path


def check(checkout: Path, today: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "openapi/release.py", f"--root={checkout}", "check", str(today)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def changed_document(checkout: Path) -> Path:
    """The latest release's document with an optional field added to Pet."""
    releases = sorted((checkout / "openapi" / "releases").glob("*.yaml"))
    document = yaml.safe_load(releases[-1].read_text())
    document["components"]["schemas"]["Pet"]["properties"]["breed"] = {"type": "string"}
    today = checkout / "today.yaml"
    today.write_text(yaml.safe_dump(document))
    return today


def add_unreleased(checkout: Path, entries: str) -> None:
    changelog = checkout / "CHANGELOG.md"
    text = changelog.read_text().replace(
        "## Unreleased\n\nNothing yet.\n", f"## Unreleased\n\n{entries}"
    )
    changelog.write_text(text)


def test_the_release_as_served_passes(checkout):
    releases = sorted((checkout / "openapi" / "releases").glob("*.yaml"))

    assert check(checkout, releases[-1]).returncode == 0


def test_a_changed_document_with_nothing_unreleased_fails_naming_the_changelog(checkout):
    verdict = check(checkout, changed_document(checkout))

    assert verdict.returncode == 1
    assert 'CHANGELOG.md\'s "Unreleased" section lists nothing' in verdict.stderr


def test_a_changed_document_with_its_changelog_entry_passes(checkout):
    add_unreleased(checkout, ADDED)

    assert check(checkout, changed_document(checkout)).returncode == 0


def set_version(checkout: Path, version: str) -> None:
    pyproject = checkout / "pyproject.toml"
    current = release_tool().project_version(checkout)
    text = pyproject.read_text().replace(f'version = "{current}"', f'version = "{version}"', 1)
    pyproject.write_text(text)


def test_a_version_set_by_hand_fails(checkout):
    latest = release_tool().releases(checkout)[-1]
    set_version(checkout, "9.0.0")

    verdict = check(checkout, checkout / "openapi" / "releases" / f"{latest}.yaml")

    assert verdict.returncode == 1
    assert f"version is 9.0.0, the latest release {latest}" in verdict.stderr


def test_a_release_without_its_changelog_section_fails(checkout):
    latest = checkout / "openapi" / "releases" / f"{release_tool().releases(checkout)[-1]}.yaml"
    shutil.copyfile(latest, checkout / "openapi" / "releases" / "9.0.0.yaml")
    set_version(checkout, "9.0.0")

    verdict = check(checkout, latest)

    assert verdict.returncode == 1
    assert "CHANGELOG.md has no section for release 9.0.0." in verdict.stderr


def test_cutting_moves_the_unreleased_entries_under_the_version_and_sets_it(checkout):
    add_unreleased(checkout, ADDED)

    release_tool().cut(checkout, "9.0.0", date(2026, 12, 1))

    changelog = (checkout / "CHANGELOG.md").read_text()
    assert (
        "## Unreleased\n\nNothing yet.\n\n## 9.0.0 (2026-12-01)\n\n### Added\n\n- `breed`"
        in changelog
    )
    assert 'version = "9.0.0"' in (checkout / "pyproject.toml").read_text()


@pytest.mark.parametrize("version", ["{latest}", "1.0.0", "0.9.0", "9.1", "v9.1.0"])
def test_cutting_refuses_a_version_that_does_not_follow_the_latest(checkout, version):
    add_unreleased(checkout, ADDED)
    latest = release_tool().releases(checkout)[-1]

    with pytest.raises(SystemExit, match=f"does not follow the latest release, {latest}"):
        release_tool().cut(checkout, version.format(latest=latest), date(2026, 12, 1))


def test_cutting_refuses_a_release_with_nothing_in_it(checkout):
    with pytest.raises(SystemExit, match="lists nothing to release"):
        release_tool().cut(checkout, "9.0.0", date(2026, 12, 1))


def test_every_sdk_states_the_projects_version_and_the_document_too(settings):
    generate = script("clients/generate.py")

    stamped = generate.stamped(ROOT, generate.project_version(ROOT))
    restamped = generate.stamped(ROOT, "9.8.7")

    assert len(stamped) == 4
    assert all((ROOT / path).read_text() == text for path, text in stamped.items())
    assert all(text.count('"9.8.7"') >= 1 for text in restamped.values())
    assert restamped[Path("clients/typescript/package-lock.json")].count('"9.8.7"') == 2
    assert settings.SPECTACULAR_SETTINGS["VERSION"] == generate.project_version(ROOT)
