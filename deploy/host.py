"""`make serve`'s supervision, once the stack runs: the signals an operator or a release sends.

- Ctrl-C (SIGINT) stops the stack gracefully.
- SIGTERM drains the host first: the drain file is made, so ``/readyz`` answers 503 and the load
  balancer sends no new clients, while every request is still served; after ``drain_seconds``
  the stack stops, gracefully.
- SIGHUP reloads gunicorn and nginx.
- SIGUSR1 moves the Celery worker to the code now in place: a new worker first, the old one
  stopped once the new one consumes (``SupervisedWorkers.roll``).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Protocol

from deploy.files import write_whole
from deploy.workers import SupervisedWorkers

# Long enough for a load balancer probing every 5 s to see two failed probes and stop sending.
DRAIN_SECONDS = 15.0
# deploy.serve's own pid, for deploy.release to signal.
SERVE_PID = "serve.pid"
# How often the loop looks at its processes and at the signals received.
TICK = 0.2


class Front(Protocol):
    """deploy.serve's Front, as this loop uses it (deploy.serve imports this module)."""

    nginx: subprocess.Popen[bytes]
    gunicorn: subprocess.Popen[bytes]

    def reload(self) -> None: ...

    def stop(self, timeout: float = ...) -> None: ...


class Host:
    """The loop that keeps the stack running until it is stopped or drained."""

    def __init__(
        self, front: Front, workers: SupervisedWorkers, drain_file: Path, drain_seconds: float
    ) -> None:
        self.front, self.workers = front, workers
        self.drain_file, self.drain_seconds = drain_file, drain_seconds
        self.stopping = False
        self.drain_until: float | None = None
        self.roll_asked = False

    def _stop(self, signum: int, frame: object) -> None:
        self.stopping = True

    def _drain(self, signum: int, frame: object) -> None:
        if self.drain_until is None:
            self.drain_file.touch()
            self.drain_until = time.monotonic() + self.drain_seconds

    def _roll(self, signum: int, frame: object) -> None:
        self.roll_asked = True

    def run(self, pid_file: Path) -> int:
        """Until stopped, drained, or the front fails (then 1); the worker is started again
        whenever it exits."""
        signal.signal(signal.SIGINT, self._stop)
        signal.signal(signal.SIGTERM, self._drain)
        signal.signal(signal.SIGHUP, lambda signum, frame: self.front.reload())
        signal.signal(signal.SIGUSR1, self._roll)
        write_whole(pid_file, f"{os.getpid()}\n")
        front = self.front
        try:
            while not self._done() and front.nginx.poll() is None and front.gunicorn.poll() is None:
                if self.roll_asked:
                    self.roll_asked = False
                    if not self.workers.roll():
                        print("The new Celery worker did not start; kept the old.", file=sys.stderr)
                elif self.workers.keep_running():
                    print("The Celery worker exited; started it again.", file=sys.stderr)
                time.sleep(TICK)
        finally:
            self.workers.stop()
            front.stop()
            pid_file.unlink(missing_ok=True)
            self.drain_file.unlink(missing_ok=True)
        return 0 if self._done() else 1

    def _done(self) -> bool:
        drained = self.drain_until is not None and time.monotonic() >= self.drain_until
        return self.stopping or drained
