"""A window added to the table as a newcomer adds one (tests/apikeys/new_window: its row, its
Plan and Account fields, its migration) is reported by every place that reports the windows: those
checks run in a process of their own, whose settings give the table a quarter hour."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EVERY_PLACE = Path(__file__).parent / "new_window" / "every_place.py"


def test_every_place_reports_a_window_added_to_the_table():
    checks = len(re.findall(r"^def test_", EVERY_PLACE.read_text(), re.MULTILINE))

    ran = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            str(EVERY_PLACE.relative_to(ROOT)),
            "--ds=tests.apikeys.new_window.settings",
            "--create-db",
            "-p",
            "no:cacheprovider",
            "-q",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )

    # The first error says why; those after it often only repeat pytest's own state.
    assert ran.returncode == 0, ran.stdout[:3000] + ran.stdout[-1500:] + ran.stderr[-2000:]
    assert f"{checks} passed" in ran.stdout
