"""The files a release reads while `make serve` writes them (pid files, ready marks, nginx's
configuration) are never seen half-written (deploy.files)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from deploy.files import read_pid, write_whole

ROOT = Path(__file__).resolve().parents[2]
# Two pids of different lengths, written in turn: a torn read shows as neither.
PIDS = (7, 4194303)
WRITES = 5_000

WRITER = """
import sys
from pathlib import Path
from deploy.files import write_whole
path, writes, pids = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
for n in range(writes):
    write_whole(path, pids[n % 2] + "\\n")
"""


def test_a_pid_file_rewritten_thousands_of_times_is_never_read_half_written(tmp_path: Path):
    path = tmp_path / "celery.pid"
    write_whole(path, f"{PIDS[0]}\n")
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), str(WRITES), *map(str, PIDS)], cwd=ROOT
    )
    seen: dict[int | None, int] = {}
    try:
        # As deploy.release polls, only as fast as it can, for as long as the writer writes.
        while writer.poll() is None:
            pid = read_pid(path)
            seen[pid] = seen.get(pid, 0) + 1
    finally:
        writer.kill()
        writer.wait()

    print(f"\n{WRITES} writes; reads seen: {seen}")
    assert writer.returncode == 0
    assert set(seen) <= set(PIDS), seen  # never None (empty, missing), never a piece of one
    assert sum(seen.values()) > 1_000  # the reader really raced the writer
    assert [p.name for p in tmp_path.iterdir()] == ["celery.pid"]  # no temporary file left


def test_a_file_missing_or_holding_no_number_is_not_yet_a_pid(tmp_path: Path):
    path = tmp_path / "gunicorn.pid"
    assert read_pid(path) is None
    path.write_text("")
    assert read_pid(path) is None
    path.write_text("12\n")
    assert read_pid(path) == 12


def test_a_write_that_fails_leaves_the_old_file_and_no_temporary_one(tmp_path: Path):
    path = tmp_path / "nginx.conf"
    write_whole(path, "old")

    # A lone surrogate cannot be encoded: the write fails part way through the text.
    with pytest.raises(UnicodeEncodeError):
        write_whole(path, "new\udc80")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["nginx.conf"]


def test_deploy_writes_what_others_read_only_whole():
    """Every file deploy/ writes goes through write_whole: Path.write_text truncates first."""
    writers = {
        str(path.relative_to(ROOT))
        for path in (ROOT / "deploy").glob("*.py")
        if path.name != "files.py"
        and re.search(r"\.write_text\(|\.write_bytes\(", path.read_text())
    }
    assert writers == set()
