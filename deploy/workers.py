"""The task queue's workers (Celery, ``petstore.celery``): one worker with its beat (the
schedule that runs ``dispatch`` every second) and ``concurrency`` processes delivering webhooks.
More workers, on any host, share the same Redis; the beat runs beside one of them only."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def start_workers(
    env: Mapping[str, str], run_dir: Path, *, concurrency: int = 4, beat: bool = True
) -> subprocess.Popen[bytes]:
    """Processes (prefork), Celery's default: its thread pool did not survive the broker's
    restart (kombu's Redis transport lost its connection under a running thread)."""
    command = [
        sys.executable,
        "-m",
        "celery",
        "--app",
        "petstore",
        "worker",
        "--pool",
        "prefork",
        "--concurrency",
        str(concurrency),
        "--loglevel",
        "WARNING",
        "--without-mingle",
        "--without-gossip",
    ]
    if beat:
        command += ["--beat", "--schedule", str(run_dir / "beat-schedule")]
    # A session of its own: the beat is a child process, and stopping the worker stops both.
    return subprocess.Popen(command, cwd=ROOT, env=dict(env), start_new_session=True)


def stop_workers(process: subprocess.Popen[bytes], *, kill: bool = False) -> None:
    """Stop the worker and its beat: gracefully (its tasks finish), or at once."""
    with contextlib.suppress(ProcessLookupError):  # the whole group has exited already
        os.killpg(process.pid, signal.SIGKILL if kill else signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


class SupervisedWorkers:
    """The worker, started again whenever it exits, as a process supervisor (systemd's
    ``Restart=always``) does in production: Celery's worker can exit when its broker restarts,
    and what it had not delivered waits in PostgreSQL meanwhile (``webhooks.services``)."""

    def __init__(self, env: Mapping[str, str], run_dir: Path, *, concurrency: int = 4) -> None:
        self._env, self._run_dir, self._concurrency = env, run_dir, concurrency
        self.process = self._start()

    def _start(self) -> subprocess.Popen[bytes]:
        return start_workers(self._env, self._run_dir, concurrency=self._concurrency)

    def keep_running(self) -> bool:
        """Start the worker again if it has exited (its beat too, should that outlive it);
        whether it had to be."""
        if self.process.poll() is None:
            return False
        stop_workers(self.process, kill=True)
        self.process = self._start()
        return True

    def stop(self, *, kill: bool = False) -> None:
        stop_workers(self.process, kill=kill)
