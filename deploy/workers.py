"""The task queue's workers (Celery, ``petstore.celery``): one worker with its beat (the
schedule that runs ``dispatch`` every quarter second), delivering webhooks from ``concurrency``
greenlets (gevent) that share a pool of database connections. More workers, on any host, share
the same Redis; the beat runs beside one of them only."""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

from deploy.files import write_whole
from deploy.rolling import RUN_DIR, ready_marker
from petstore.metrics_directory import VARIABLE, forget_dead_processes, own_directory

ROOT = Path(__file__).resolve().parent.parent
# The running worker's pid, in the run directory, for deploy.release to follow.
WORKER_PID = "celery.pid"
# How long a new worker may take to consume (Django and Celery load, the broker answers).
STARTUP_SECONDS = 120


# Deliveries in flight at once in a worker: one waiting on a slow receiver costs a greenlet
# and a socket, not a process (docs/webhooks.md measures the choice).
GREENLETS = 500
# Database connections a worker's greenlets borrow from, one for each step that needs one.
POOL_SIZE = "10"


def start_workers(
    env: Mapping[str, str],
    run_dir: Path,
    *,
    pool: str = "gevent",
    concurrency: int = GREENLETS,
    beat: bool = True,
    root: Path = ROOT,
) -> subprocess.Popen[bytes]:
    """gevent's pool, where a delivery waiting on its receiver holds no process; ``prefork``
    (``make run``'s) where that does not matter. Celery's thread pool did not survive the
    broker's restart (kombu's Redis transport lost its connection under a running thread).
    Once it consumes, the worker makes its mark in ``run_dir/ready`` (``petstore.celery``)."""
    env = {"DATABASE_POOL_SIZE": POOL_SIZE, **env} if pool == "gevent" else dict(env)
    env[RUN_DIR] = str(run_dir)
    celery = [sys.executable, "-m", "celery", "--app", "petstore"]
    command = [
        *celery,
        "worker",
        "--pool",
        pool,
        "--concurrency",
        str(concurrency),
        "--loglevel",
        "WARNING",
        "--without-mingle",
        "--without-gossip",
    ]
    schedule = ["--schedule", str(run_dir / "beat-schedule")]
    if beat and pool == "prefork":
        command += ["--beat", *schedule]
    if beat and pool != "prefork":
        # gevent's pool cannot hold the beat: a shell starts it, then becomes the worker.
        beat_command = [*celery, "beat", "--loglevel", "WARNING", *schedule]
        command = ["sh", "-c", f"{shlex.join(beat_command)} & exec {shlex.join(command)}"]
    # A session of its own, the beat in it too: stopping the worker stops both.
    # Started in ``root`` (maybe a symlink): the worker imports what it resolves to now.
    return subprocess.Popen(command, cwd=root, env=env, start_new_session=True)


def stop_workers(process: subprocess.Popen[bytes], *, kill: bool = False) -> None:
    """Stop the worker and its beat: gracefully (its tasks finish), or at once."""
    with contextlib.suppress(ProcessLookupError):  # the whole group has exited already
        os.killpg(process.pid, signal.SIGKILL if kill else signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    # A worker killed cannot remove the metrics' directory it made for itself (petstore.celery).
    shutil.rmtree(own_directory(process.pid), ignore_errors=True)


class SupervisedWorkers:
    """The worker, started again whenever it exits, as a process supervisor (systemd's
    ``Restart=always``) does in production: Celery's worker can exit when its broker restarts,
    and what it had not delivered waits in PostgreSQL meanwhile (``webhooks.services``)."""

    def __init__(self, env: Mapping[str, str], run_dir: Path, *, root: Path = ROOT) -> None:
        self._env, self._run_dir, self._root = env, run_dir, root
        self.process = self._start()

    def _start(self) -> subprocess.Popen[bytes]:
        process = start_workers(self._env, self._run_dir, root=self._root)
        write_whole(self._run_dir / WORKER_PID, f"{process.pid}\n")
        return process

    def roll(self, seconds: float = STARTUP_SECONDS) -> bool:
        """Move to the code now in ``root``: a new worker (and beat) is started, and once it
        consumes, the old one is stopped warm, finishing the deliveries in hand. What it had
        taken but not begun stays leased in PostgreSQL and is due again when its lease ends
        (``webhooks.tasks``): none is lost, none sent twice. Whether the new one started; if
        not, it is stopped and the old one kept."""
        new = start_workers(self._env, self._run_dir, root=self._root)
        marker = ready_marker(new.pid, self._run_dir)
        deadline = time.monotonic() + seconds
        while marker is not None and not marker.exists():
            if new.poll() is not None or time.monotonic() > deadline:
                stop_workers(new, kill=True)
                return False
            time.sleep(0.1)
        old, self.process = self.process, new
        write_whole(self._run_dir / WORKER_PID, f"{new.pid}\n")
        self._stop(old)
        return True

    def _stop(self, process: subprocess.Popen[bytes], *, kill: bool = False) -> None:
        stop_workers(process, kill=kill)
        marker = ready_marker(process.pid, self._run_dir)
        if marker is not None:
            marker.unlink(missing_ok=True)

    def keep_running(self) -> bool:
        """Start the worker again if it has exited (its beat too, should that outlive it);
        whether it had to be."""
        if self.process.poll() is None:
            return False
        self._stop(self.process, kill=True)
        forget_dead_processes(self._env.get(VARIABLE))
        self.process = self._start()
        return True

    def stop(self, *, kill: bool = False) -> None:
        self._stop(self.process, kill=kill)
