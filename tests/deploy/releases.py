"""Two releases of this tree on disk, as a host keeps them: ``releases/1`` (the code as it is)
and ``releases/2`` (the same plus an additive migration its code relies on), and ``current``, the
symlink `make serve` runs from."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What a release is not: the environment, history, caches, and what tools made.
LEFT_OUT = shutil.ignore_patterns(
    ".venv", ".git", "mutants", "node_modules", "__pycache__", ".*_cache", ".queue", "*.sqlite3"
)
MIGRATIONS = ROOT / "pets" / "migrations"
# The second release's column: nullable, so that the first release's inserts, which do not name
# it, go on working once it is added.
FIELD = "release_note = models.TextField(null=True, blank=True)"
SECOND_MIGRATION = "release_note"


def _latest_migration() -> str:
    """The pets app's last migration, the one the second release's follows."""
    names = sorted(p.stem for p in MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.py"))
    return names[-1]


def lay_out(base: Path) -> tuple[Path, Path, Path]:
    """``base/releases/1``, ``base/releases/2`` and ``base/current`` -> the first."""
    first, second = base / "releases" / "1", base / "releases" / "2"
    shutil.copytree(ROOT, first, ignore=LEFT_OUT, symlinks=True)
    shutil.copytree(ROOT, second, ignore=LEFT_OUT, symlinks=True)
    _make_second(second)
    current = base / "current"
    current.symlink_to(first)
    return first, second, current


def _make_second(tree: Path) -> None:
    """The column, its migration, and a sign of the release on /healthz."""
    models = tree / "pets" / "models.py"
    text = models.read_text()
    anchor = "    created_at = models.DateTimeField(auto_now_add=True)\n"
    assert anchor in text, "pets.models.Pet changed: update tests/deploy/releases.py"
    models.write_text(text.replace(anchor, f"{anchor}    {FIELD}\n", 1))
    previous = _latest_migration()
    (tree / "pets" / "migrations" / f"{SECOND_MIGRATION}.py").write_text(
        "from django.db import migrations, models\n\n\n"
        "class Migration(migrations.Migration):\n"
        f"    dependencies = [('pets', '{previous}')]\n"
        "    operations = [\n"
        "        migrations.AddField('pet', 'release_note', "
        "models.TextField(null=True, blank=True)),\n"
        "    ]\n"
    )
    probes = tree / "petstore" / "probes.py"
    text, count = re.subn(
        r'JsonResponse\(\{"status": "ok"\}\)',
        'JsonResponse({"status": "ok", "release": "2"})',
        probes.read_text(),
    )
    assert count == 1, "petstore.probes.healthz changed: update tests/deploy/releases.py"
    probes.write_text(text)
