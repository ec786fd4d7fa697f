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

A release stopped part way (a worker that would not start, a step that took too long) says
what it did and did not do, and the command that finishes it: the same command, run again,
picks the roll up where it stopped (the web's is recorded in the run directory).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from deploy.files import read_pid, write_whole
from deploy.host import SERVE_PID
from deploy.rolling import ready_marker
from deploy.serve import GUNICORN_PID
from deploy.workers import STARTUP_SECONDS, WORKER_PID

ROOT = Path(__file__).resolve().parent.parent
# Old workers finish their request within gunicorn's graceful_timeout; a margin past it.
STOP_SECONDS = 40
# The web's roll in progress, in the run directory: which workers are old, how many to have.
WEB_ROLL = "web-roll.json"

T = TypeVar("T")


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


def roll_web(
    run_dir: Path, say: Callable[[str], None] = print, seconds: float = STARTUP_SECONDS
) -> None:
    """A new gunicorn worker per old one; the old ones stopped once every new one answers. A
    roll left part way is taken up where it stopped, not begun again over its new workers."""
    master = _pid(run_dir / GUNICORN_PID, "gunicorn's pid file", seconds)
    old, count = _web_roll_begun(run_dir, master)
    for _ in range(count - len(workers_of(master) - old)):
        _add_worker(master, seconds)

    def answering() -> set[int]:
        return {pid for pid in workers_of(master) - old if _ready(pid, run_dir)}

    _wait(lambda: len(answering()) >= count, "new gunicorn workers to answer", seconds)
    say(f"{len(answering())} new gunicorn workers answer; stopping the old ones")
    # One at a time, each once the last is gone: signals sent together may arrive as one.
    while workers_of(master) & old:
        _stop_oldest(master, old)
    (run_dir / WEB_ROLL).unlink(missing_ok=True)


def _web_roll_begun(run_dir: Path, master: int) -> tuple[set[int], int]:
    """The old workers and how many new ones to have: those recorded by a roll of this master
    that did not finish, else today's, recorded now."""
    record = run_dir / WEB_ROLL
    try:
        begun = json.loads(record.read_text())
    except (OSError, ValueError):
        begun = None
    if isinstance(begun, dict) and begun.get("master") == master:
        return set(begun["old"]), int(begun["count"])
    old = workers_of(master)
    write_whole(record, json.dumps({"master": master, "old": sorted(old), "count": len(old)}))
    return old, len(old)


def _add_worker(master: int, seconds: float) -> None:
    """One worker more (TTIN), once gunicorn has forked it: signals sent together may arrive
    as one."""
    count = len(workers_of(master))
    os.kill(master, signal.SIGTTIN)
    _wait(lambda: len(workers_of(master)) > count, "gunicorn to fork a worker", seconds)


def _stop_oldest(master: int, old: set[int]) -> None:
    """One worker fewer (TTOU): gunicorn stops its oldest, gracefully; once it has exited."""
    left = len(workers_of(master) & old) - 1
    os.kill(master, signal.SIGTTOU)
    _wait(lambda: len(workers_of(master) & old) <= left, "an old gunicorn worker to stop")


def start_tasks_roll(
    run_dir: Path, seconds: float = STARTUP_SECONDS + STOP_SECONDS
) -> Callable[[Callable[[str], None]], None]:
    """Ask deploy.serve to replace its Celery worker by one on the new code, started first
    (SIGUSR1); what waits until it has."""
    serve = _pid(run_dir / SERVE_PID, "deploy.serve's pid file", seconds)
    old = _pid(run_dir / WORKER_PID, "the Celery worker's pid file", seconds)
    os.kill(serve, signal.SIGUSR1)

    def moved() -> bool:
        new = read_pid(run_dir / WORKER_PID)
        return (
            new is not None
            and new != old
            and _ready(new, run_dir)
            and not Path(f"/proc/{old}").exists()
        )

    def wait(say: Callable[[str], None]) -> None:
        _wait(moved, "the Celery worker to move to the new code", seconds)
        say(f"Celery worker {old} replaced by {read_pid(run_dir / WORKER_PID)}")

    return wait


def _pid(path: Path, what: str, seconds: float) -> int:
    """The pid ``path`` holds, once it holds one."""
    return _wait_for(lambda: read_pid(path), what, seconds)


def _ready(pid: int, run_dir: Path) -> bool:
    marker = ready_marker(pid, run_dir)
    return marker is not None and marker.exists()


def _wait_for(value: Callable[[], T | None], what: str, seconds: float) -> T:
    """What ``value`` gives once it gives something, asked every tenth of a second."""
    deadline = time.monotonic() + seconds
    while (found := value()) is None:
        if time.monotonic() > deadline:
            raise RuntimeError(f"gave up waiting for {what} after {seconds:.0f} s")
        time.sleep(0.1)
    return found


def _wait(done: Callable[[], bool], what: str, seconds: float = STOP_SECONDS) -> None:
    _wait_for(lambda: True if done() else None, what, seconds)


class Progress:
    """What the release has done so far, for the sentence it ends with if a step fails."""

    def __init__(self, options: argparse.Namespace) -> None:
        self.options = options
        self.previous = options.current.resolve() if options.current else None
        self.migrated = self.pointed = self.web = self.tasks = False

    def failed(self, error: BaseException) -> str:
        """One sentence: what was done, what was not, and the command that finishes it."""
        again = command(self.options)
        if not self.migrated:
            return (
                f"deploy.release: the migrations failed ({error}); nothing else was done, every "
                f"worker runs the code it ran before; once the migration is fixed, run {again}"
            )
        done, undone = ["migrated"], list[str]()
        if self.options.current:
            (done if self.pointed else undone).append(
                f"pointed {self.options.current} at {self.options.to}"
            )
        (done if self.web else undone).append("moved gunicorn's workers to the new code")
        (done if self.tasks else undone).append("moved the Celery worker")
        back = ""
        # Run again after a switch, the release no longer knows what came before it.
        if self.pointed and self.previous not in (None, self.options.to.resolve()):
            back = f", or {command(self.options, to=self.previous)} to go back"
        return (
            f"deploy.release: stopped ({error}) having {', '.join(done)} but not "
            f"{' nor '.join(undone)}; run {again} to finish{back}"
        )


def command(options: argparse.Namespace, to: Path | None = None) -> str:
    """The command line that runs this release again (to ``to``, if given)."""
    words = [sys.executable, "-m", "deploy.release", "--run-dir", str(options.run_dir)]
    if options.current:
        words += ["--to", str(to or options.to), "--current", str(options.current)]
    if options.wait != STARTUP_SECONDS:
        words += ["--wait", f"{options.wait:g}"]
    return shlex.join(words)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run-dir", type=Path, required=True, help="make serve's --run-dir")
    parser.add_argument("--to", type=Path, help="the new release's directory")
    parser.add_argument("--current", type=Path, help="the symlink make serve was started from")
    parser.add_argument(
        "--wait",
        type=float,
        default=STARTUP_SECONDS,
        help=f"how long new workers may take to answer (default {STARTUP_SECONDS} s)",
    )
    options = parser.parse_args(argv)
    if bool(options.to) != bool(options.current):
        parser.error("--to and --current go together")

    began = time.monotonic()

    def say(line: str) -> None:
        print(f"deploy.release: {time.monotonic() - began:5.1f} s: {line}", flush=True)

    progress = Progress(options)
    try:
        release(options, progress, say)
    except (OSError, RuntimeError, subprocess.CalledProcessError) as error:
        print(progress.failed(error), file=sys.stderr, flush=True)
        return 1
    say("done")
    return 0


def release(options: argparse.Namespace, progress: Progress, say: Callable[[str], None]) -> None:
    """The steps in order, each marked done in ``progress`` as it ends."""
    code = options.to or ROOT
    say(f"migrating with {code}")
    migrate(code)
    progress.migrated = True
    if options.current:
        point(options.current, options.to)
        progress.pointed = True
        say(f"{options.current} -> {options.to.resolve()}")
    # The Celery worker starts on the new code now, and boots while the web's workers do.
    tasks = None
    if read_pid(options.run_dir / SERVE_PID) is not None:
        tasks = start_tasks_roll(options.run_dir, options.wait + STOP_SECONDS)
    roll_web(options.run_dir, say, options.wait)
    progress.web = True
    if tasks is None:
        say("no deploy.serve in this run directory: restart the Celery workers yourself")
    else:
        tasks(say)
    progress.tasks = True


if __name__ == "__main__":
    sys.exit(main())
