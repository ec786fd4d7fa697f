"""Deploy a release to a running `make serve`, without a pause (docs/releasing.md).

    python -m deploy.release --run-dir /run/petstore --to /srv/petstore/releases/2 \\
        --current /srv/petstore/current

in this order:

1. the new release's migrations (``manage.py migrate``, from ``--to``): additive only, so the
   code running meanwhile still works;
2. ``--current``, the symlink ``make serve`` was started from, is pointed at ``--to``
   (without ``--to``, the code was put in place already and this step is skipped);
3. gunicorn gets one new worker per running one (TTIN), which loads the new code
   (``deploy.rolling``); once every new one answers, the old ones are stopped gracefully (TTOU),
   each finishing its request: at every moment some worker answers;
4. meanwhile (asked as step 3 begins, so that both boot at once), ``deploy.serve`` starts a
   Celery worker on the new code (SIGUSR1) and, once it consumes, stops the old one warm
   (``deploy.workers.SupervisedWorkers.roll``).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from deploy.host import SERVE_PID
from deploy.rolling import ready_marker
from deploy.serve import GUNICORN_PID
from deploy.workers import STARTUP_SECONDS, WORKER_PID

ROOT = Path(__file__).resolve().parent.parent
# Old workers finish their request within gunicorn's graceful_timeout; a margin past it.
STOP_SECONDS = 40


def migrate(code: Path) -> None:
    """The new release's migrations, run by its own code."""
    command = [sys.executable, "manage.py", "migrate", "--verbosity", "1"]
    subprocess.run(command, cwd=code, check=True)


def point(current: Path, release: Path) -> None:
    """``current`` names ``release`` from now on, in one rename: never missing, never half."""
    staging = current.with_name(f".{current.name}.next")
    staging.unlink(missing_ok=True)
    staging.symlink_to(release.resolve())
    os.replace(staging, current)


def workers_of(master: int) -> set[int]:
    """gunicorn's workers: its master's children."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return {int(pid) for pid in children}


def roll_web(run_dir: Path, say: Callable[[str], None] = print) -> None:
    """A new gunicorn worker per old one; the old ones stopped once every new one answers."""
    master = int((run_dir / GUNICORN_PID).read_text())
    old = workers_of(master)
    for _ in old:
        _add_worker(master)

    def answering() -> set[int]:
        return {pid for pid in workers_of(master) - old if _ready(pid, run_dir)}

    _wait(lambda: len(answering()) >= len(old), "new gunicorn workers to answer", STARTUP_SECONDS)
    say(f"{len(answering())} new gunicorn workers answer; stopping the {len(old)} old ones")
    # One at a time, each once the last is gone: signals sent together may arrive as one.
    for _ in old:
        _stop_oldest(master, old)


def _add_worker(master: int) -> None:
    """One worker more (TTIN), once gunicorn has forked it: signals sent together may arrive
    as one."""
    count = len(workers_of(master))
    os.kill(master, signal.SIGTTIN)
    _wait(lambda: len(workers_of(master)) > count, "gunicorn to fork a worker", 10)


def _stop_oldest(master: int, old: set[int]) -> None:
    """One worker fewer (TTOU): gunicorn stops its oldest, gracefully; once it has exited."""
    left = len(workers_of(master) & old) - 1
    os.kill(master, signal.SIGTTOU)
    _wait(lambda: len(workers_of(master) & old) <= left, "an old gunicorn worker to stop")


def start_tasks_roll(run_dir: Path) -> Callable[[Callable[[str], None]], None]:
    """Ask deploy.serve to replace its Celery worker by one on the new code, started first
    (SIGUSR1); what waits until it has."""
    serve = int((run_dir / SERVE_PID).read_text())
    old = int((run_dir / WORKER_PID).read_text())
    os.kill(serve, signal.SIGUSR1)

    def moved() -> bool:
        new = int((run_dir / WORKER_PID).read_text())
        return new != old and _ready(new, run_dir) and not Path(f"/proc/{old}").exists()

    def wait(say: Callable[[str], None]) -> None:
        _wait(moved, "the Celery worker to move to the new code", STARTUP_SECONDS + STOP_SECONDS)
        say(f"Celery worker {old} replaced by {(run_dir / WORKER_PID).read_text().strip()}")

    return wait


def _ready(pid: int, run_dir: Path) -> bool:
    marker = ready_marker(pid, run_dir)
    return marker is not None and marker.exists()


def _wait(done: Callable[[], bool], what: str, seconds: float = STOP_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise RuntimeError(f"gave up waiting for {what} after {seconds:.0f} s")
        time.sleep(0.1)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run-dir", type=Path, required=True, help="make serve's --run-dir")
    parser.add_argument("--to", type=Path, help="the new release's directory")
    parser.add_argument("--current", type=Path, help="the symlink make serve was started from")
    options = parser.parse_args(argv)
    if bool(options.to) != bool(options.current):
        parser.error("--to and --current go together")

    began = time.monotonic()

    def say(line: str) -> None:
        print(f"deploy.release: {time.monotonic() - began:5.1f} s: {line}", flush=True)

    code = options.to or ROOT
    say(f"migrating with {code}")
    migrate(code)
    if options.current:
        point(options.current, options.to)
        say(f"{options.current} -> {options.to.resolve()}")
    serve = options.run_dir / SERVE_PID
    # The Celery worker starts on the new code now, and boots while the web's workers do.
    tasks = start_tasks_roll(options.run_dir) if serve.exists() else None
    roll_web(options.run_dir, say)
    if tasks is not None:
        tasks(say)
    else:
        say("no deploy.serve in this run directory: restart the Celery workers yourself")
    say("done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
