"""Nothing in the project stops, starts or restarts the machine's own PostgreSQL: that server is
shared with whatever else runs here. A test of an outage brings a server of its own
(tests/postgres.py); only .ci/services, which starts the machine's server for the tests, and
the documentation may name pg_ctl or pg_ctlcluster."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Either tool as a word of its own: "pg_ctlcluster 15 main stop", "pg_ctl -D", ".../bin/pg_ctl".
CONTROL = re.compile(r"\bpg_ctl(?:cluster)?\b")
ALLOWED = {".ci/services", Path(__file__).relative_to(ROOT).as_posix()}


def project_files() -> list[str]:
    """The files git tracks, and the new ones it would (not ignored), relative to the root."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    return sorted({name for name in listed.decode().split("\0") if name})


def checked(name: str) -> bool:
    return name not in ALLOWED and not name.endswith(".md")


def uses(path: Path) -> list[str]:
    """Each line of ``path`` that names pg_ctl or pg_ctlcluster, with its number."""
    try:
        text = path.read_text(errors="replace")
    except (FileNotFoundError, IsADirectoryError):
        # Tracked but deleted in the working tree, or a submodule: nothing here to run.
        return []
    return [
        f"{number}: {line.strip()}"
        for number, line in enumerate(text.splitlines(), start=1)
        if CONTROL.search(line)
    ]


def test_no_file_controls_the_machines_postgresql():
    names = project_files()
    found = {name: lines for name in names if checked(name) and (lines := uses(ROOT / name))}

    assert "tests/reliability/test_faults.py" in names  # the listing is the project's
    assert found == {}


def test_the_check_finds_either_tool_and_only_as_a_word(tmp_path):
    script = tmp_path / "restart.sh"
    script.write_text(
        "set -e\n"
        "pg_ctlcluster 15 main stop\n"
        "echo pg_ctl_is_not_it mypg_ctl\n"
        "/usr/lib/postgresql/15/bin/pg_ctl -D /tmp/data stop\n"
        "pg_ctl start\n"
    )

    assert uses(script) == [
        "2: pg_ctlcluster 15 main stop",
        "4: /usr/lib/postgresql/15/bin/pg_ctl -D /tmp/data stop",
        "5: pg_ctl start",
    ]


def test_only_the_services_script_and_the_documentation_are_spared():
    assert not checked(".ci/services")
    assert not checked("docs/operating.md")
    assert checked("tests/reliability/test_faults.py")
    assert checked("tests/postgres.py")
    assert checked("Makefile")
