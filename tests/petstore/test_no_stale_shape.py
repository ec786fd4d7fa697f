"""No stale shape after a deploy: tests/clients/future/after_a_release.py, run under the settings
of a later release (tests.clients.future: Pet with a field more), starts today's release and
then that one against one database and Redis."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AFTER_A_RELEASE = Path("tests/clients/future/after_a_release.py")


def test_a_release_that_changes_an_answers_fields_serves_nothing_of_the_old_shape():
    ran = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            str(AFTER_A_RELEASE),
            "--ds=tests.clients.future.settings",
            "--create-db",
            "-p",
            "no:cacheprovider",
            "-q",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )

    assert ran.returncode == 0, ran.stdout[-8000:] + ran.stderr[-2000:]
    assert "1 passed" in ran.stdout
