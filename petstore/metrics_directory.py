"""The metrics' multiprocess directory (prometheus-client): given (``deploy.serve`` shares one
with gunicorn and the Celery worker) or of the run's own (``deploy/gunicorn.conf.py``), made
empty when the run starts, and the counts of each process that has died (a gunicorn worker
replaced after ``max_requests``, a Celery worker started again) added to one file of totals,
its own files removed: a scrape reads one file per live process, and one more however many
have come and gone. No Django here: gunicorn's master runs it (``child_exit``). It is the
plumbing's, as the Celery worker (``petstore.celery``) and the scrape (``petstore.prometheus``)
use it as much as ``deploy`` does, and the arrow runs from ``deploy`` to ``petstore`` only.

prometheus-client is imported where it is used, never on import of this module: its first
import decides, once per process, whether counts go to files, and gunicorn's master reads this
module before it sets the directory that the workers it forks inherit."""

from __future__ import annotations

import fcntl
import glob
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

VARIABLE = "PROMETHEUS_MULTIPROC_DIR"


def fresh(directory: Path) -> Path:
    """``directory``, made empty: counts left by an earlier run would be added to this one's."""
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    return directory


def own_directory(pid: int) -> Path:
    """The directory of a run started without one, named after its first process: two runs on
    a host never share it, and one left by a killed run is emptied by the next of that pid."""
    return Path(tempfile.gettempdir()) / f"petstore-metrics-{pid}"


def set_up_unless_given() -> Path | None:
    """Put a fresh directory of this process's own in the environment, for it and the
    processes it starts, unless one is there already; the directory made, if any."""
    if os.environ.get(VARIABLE):
        return None
    directory = fresh(own_directory(os.getpid()))
    os.environ[VARIABLE] = str(directory)
    return directory


def remove_own_directory() -> None:
    """Remove the directory ``set_up_unless_given`` made for this process; leave one given."""
    own = own_directory(os.getpid())
    if os.environ.get(VARIABLE) == str(own):
        shutil.rmtree(own, ignore_errors=True)


# The files of counts no live process writes to any more, added together.
_TOTALS = "{kind}_totals.db"


def forget_dead_processes(directory: str | Path | None = None) -> int:
    """Add the counts of every process that has died to the directory's totals, and remove its
    files; how many processes were forgotten. Safe to call from several processes at once."""
    from prometheus_client import multiprocess

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


@contextmanager
def held_still(directory: Path) -> Iterator[None]:
    """While the block lasts, no dead process's counts move to the totals: a scrape that reads
    the directory then counts each of them once, neither in both places nor in neither."""
    with open(directory / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_SH)
        yield


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _add_to_totals(dead: Path, totals: Path) -> None:
    from prometheus_client.mmap_dict import MmapedDict

    source = MmapedDict(str(dead), read_mode=True)
    target = MmapedDict(str(totals))
    try:
        kept = {key: value for key, value, _ in target.read_all_values()}
        for key, value, timestamp in source.read_all_values():
            target.write_value(key, kept.get(key, 0.0) + value, timestamp)
    finally:
        source.close()
        target.close()
