"""The metrics' multiprocess directory (prometheus-client), as ``deploy.serve`` runs it: made
empty when the stack starts, and the counts of each process that has died (a gunicorn worker
replaced after ``max_requests``, a Celery worker started again) added to one file of totals,
its own files removed: a scrape reads one file per live process, and one more however many
have come and gone. No Django here: gunicorn's master runs it (``child_exit``)."""

from __future__ import annotations

import fcntl
import glob
import os
import shutil
from contextlib import suppress
from pathlib import Path

from prometheus_client import multiprocess
from prometheus_client.mmap_dict import MmapedDict

VARIABLE = "PROMETHEUS_MULTIPROC_DIR"


def fresh(directory: Path) -> Path:
    """``directory``, made empty: counts left by an earlier run would be added to this one's."""
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    return directory


# The files of counts no live process writes to any more, added together.
_TOTALS = "{kind}_totals.db"


def forget_dead_processes(directory: str | Path | None = None) -> int:
    """Add the counts of every process that has died to the directory's totals, and remove its
    files; how many processes were forgotten. Safe to call from several processes at once."""
    directory = directory or os.environ.get(VARIABLE)
    if not directory or not Path(directory).is_dir():
        return 0
    directory = Path(directory)
    forgotten = set()
    with open(directory / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for path in glob.glob(str(directory / "*_*.db")):
            kind, _, pid = Path(path).stem.rpartition("_")
            if not pid.isdigit() or _alive(int(pid)):
                continue
            if kind in ("counter", "histogram"):
                _add_to_totals(Path(path), directory / _TOTALS.format(kind=kind))
            # Gauges and summaries of a dead process mean nothing any more.
            multiprocess.mark_process_dead(int(pid), str(directory))
            with suppress(FileNotFoundError):
                os.remove(path)
            forgotten.add(pid)
    return len(forgotten)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _add_to_totals(dead: Path, totals: Path) -> None:
    source = MmapedDict(str(dead), read_mode=True)
    target = MmapedDict(str(totals))
    try:
        kept = {key: value for key, value, _ in target.read_all_values()}
        for key, value, timestamp in source.read_all_values():
            target.write_value(key, kept.get(key, 0.0) + value, timestamp)
    finally:
        source.close()
        target.close()
