"""`make serve`: the production stack, nginx in front of gunicorn, in the foreground.

    DATABASE_URL=postgres://… REDIS_URL=redis://… SECRET_KEY=… python -m deploy.serve

renders deploy/nginx.conf into a run directory (its prefix: config, pid, temporary files, the
gunicorn socket), starts gunicorn (deploy/gunicorn.conf.py) on a unix socket in it, then nginx on
``--listen``; logs go to standard output and error. Ctrl-C stops both, gracefully; SIGTERM
drains the host first (``/readyz`` answers 503, requests are still served) then stops; SIGHUP
reloads both (gunicorn replaces its workers, nginx rereads its configuration) without dropping
a request; SIGUSR1 moves the Celery worker to the code now in place (``deploy.release``). The
tests and the benchmark start the same stack through ``start_front``.
"""

from __future__ import annotations

import argparse
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from deploy.files import write_whole
from deploy.host import DRAIN_SECONDS, SERVE_PID, Host
from deploy.rolling import RUN_DIR
from deploy.workers import SupervisedWorkers
from petstore import metrics_directory

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
REQUIRED = ("DATABASE_URL", "REDIS_URL", "SECRET_KEY")
INSTALL_HINT = (
    "nginx is missing. Install Debian's package: sudo apt-get install nginx (make test does it "
    "when run as root), or point PETSTORE_NGINX at an nginx binary."
)
# How long start_front waits for gunicorn, then nginx, to answer: far more than an idle host
# needs, so that a loaded one (the tests beside other work) still starts.
STARTUP_SECONDS = 120
# Files in the run directory: gunicorn's master's pid, and the mark of a host draining.
GUNICORN_PID = "gunicorn.pid"
DRAIN_FILE = "draining"


def nginx_binary() -> str:
    """The nginx to run: PETSTORE_NGINX, else the one on PATH or in /usr/sbin."""
    found = os.environ.get("PETSTORE_NGINX") or shutil.which(
        "nginx", path=f"{os.environ.get('PATH', '')}:/usr/sbin:/usr/local/sbin"
    )
    if not found:
        raise RuntimeError(INSTALL_HINT)
    return found


def render_nginx_conf(
    *, listen: str, upstream: str, run_dir: Path, access_log: str, error_log: str
) -> str:
    """deploy/nginx.conf with its @NAME@ values filled in."""
    # As root, nginx's workers drop to an unprivileged user; otherwise they stay who we are.
    user = ""
    if os.geteuid() == 0:
        user = f"user {_worker_user()};"
    values = {
        "@USER@": user,
        "@LISTEN@": listen,
        "@UPSTREAM@": upstream,
        "@RUN_DIR@": str(run_dir),
        "@ACCESS_LOG@": access_log,
        "@ERROR_LOG@": error_log,
    }
    text = (DEPLOY / "nginx.conf").read_text()
    for name, value in values.items():
        text = text.replace(name, value)
    leftover = re.findall(r"@[A-Z_]+@", text)
    if leftover:
        raise RuntimeError(f"deploy/nginx.conf: no value for {leftover}")
    return text


def _worker_user() -> str:
    for name in ("www-data", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    return "root"


@dataclass
class Front:
    """A running nginx + gunicorn pair and where its files are."""

    url: str
    run_dir: Path
    nginx: subprocess.Popen[bytes]
    gunicorn: subprocess.Popen[bytes]
    log_files: list[Path] = field(default_factory=list)

    @property
    def socket_path(self) -> Path:
        return self.run_dir / "gunicorn.sock"

    def reload(self) -> None:
        """SIGHUP to both: new gunicorn workers, a reread nginx configuration."""
        self.gunicorn.send_signal(signal.SIGHUP)
        self.nginx.send_signal(signal.SIGHUP)

    def stop(self, timeout: float = 35) -> None:
        """Graceful stop of both (requests in hand are finished), then a kill if need be."""
        for process, sig in ((self.nginx, signal.SIGQUIT), (self.gunicorn, signal.SIGTERM)):
            if process.poll() is None:
                process.send_signal(sig)
        for process in (self.nginx, self.gunicorn):
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def start_front(
    *,
    env: Mapping[str, str],
    listen: str,
    run_dir: Path | None = None,
    workers: int | None = None,
    log_to_files: bool = True,
    gunicorn_args: Sequence[str] = (),
    startup_seconds: float = STARTUP_SECONDS,
    root: Path = ROOT,
) -> Front:
    """Start gunicorn on a unix socket in ``run_dir``, then nginx on ``listen`` in front of it.

    With ``log_to_files``, every log (nginx's access and error logs, gunicorn's output, the
    service's request log) is a file under ``run_dir/logs``; otherwise they go to our own
    standard output and error. ``root`` is the code's directory, maybe a symlink that a release
    points elsewhere (``deploy.release``): workers started later load what it then holds.
    """
    nginx = nginx_binary()
    run_dir = Path(run_dir or tempfile.mkdtemp(prefix="petstore-front-"))
    logs = run_dir / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        # nginx's workers (www-data) must reach the socket and their temporary directories.
        run_dir.chmod(0o755)
    socket_path = run_dir / "gunicorn.sock"
    socket_path.unlink(missing_ok=True)

    server_env = {
        **env,
        "PETSTORE_TRUSTED_PROXIES": "1",
        RUN_DIR: str(run_dir),
        "PETSTORE_DRAIN_FILE": str(run_dir / DRAIN_FILE),
    }
    if (
        metrics_directory.VARIABLE not in server_env
    ):  # not shared with workers started by the caller
        server_env[metrics_directory.VARIABLE] = str(metrics_directory.fresh(run_dir / "metrics"))
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "--config",
        str(root / "deploy" / "gunicorn.conf.py"),
        "--chdir",
        str(root),
        "--pid",
        str(run_dir / GUNICORN_PID),
        "--bind",
        f"unix:{socket_path}",
        *(["--workers", str(workers)] if workers else []),
        *gunicorn_args,
        "petstore.wsgi:application",
    ]
    output: IO[bytes] | None = None
    if log_to_files:
        output = (logs / "gunicorn.log").open("ab")
    # Own process groups: a Ctrl-C reaches serve.py alone, which stops both gracefully.
    gunicorn = subprocess.Popen(
        command, cwd=root, env=server_env, stdout=output, stderr=output, process_group=0
    )
    try:
        return _start_nginx(nginx, gunicorn, run_dir, listen, output, log_to_files, startup_seconds)
    except BaseException:
        gunicorn.kill()
        gunicorn.wait()
        raise


def _start_nginx(
    nginx: str,
    gunicorn: subprocess.Popen[bytes],
    run_dir: Path,
    listen: str,
    output: IO[bytes] | None,
    log_to_files: bool,
    startup_seconds: float,
) -> Front:
    socket_path, logs = run_dir / "gunicorn.sock", run_dir / "logs"
    _wait(lambda left: _accepts(socket_path), {"gunicorn": gunicorn}, "gunicorn", startup_seconds)

    if log_to_files:
        access_log, error_log = str(logs / "access.log"), str(logs / "error.log")
    else:
        access_log, error_log = "/dev/stdout", "stderr"
    conf = run_dir / "nginx.conf"
    write_whole(
        conf,
        render_nginx_conf(
            listen=listen,
            upstream=f"unix:{socket_path}",
            run_dir=run_dir,
            access_log=access_log,
            error_log=error_log,
        ),
    )
    nginx_process = subprocess.Popen(
        [nginx, "-p", str(run_dir), "-c", str(conf), "-e", error_log],
        cwd=run_dir,
        stdout=output,
        stderr=output,
        process_group=0,
    )
    host, _, port = listen.rpartition(":")
    url = f"http://{host or '127.0.0.1'}:{port}"
    front = Front(url, run_dir, nginx_process, gunicorn)
    if log_to_files:
        front.log_files = [logs / name for name in ("access.log", "error.log", "gunicorn.log")]
    try:
        _wait(
            lambda left: _healthy(url, left),
            {"nginx": nginx_process, "gunicorn": gunicorn},
            "nginx",
            startup_seconds,
        )
    except BaseException:
        nginx_process.kill()
        nginx_process.wait()
        raise
    return front


def _accepts(path: Path) -> bool:
    if not path.exists():
        return False
    with socket.socket(socket.AF_UNIX) as sock:
        try:
            sock.connect(str(path))
        except OSError:
            return False
    return True


def _healthy(url: str, seconds: float) -> bool:
    # The probe waits for its answer as long as the start may take: one given up on still
    # reaches a worker, and on a slow start (workers booting, replaced after --max-requests)
    # such probes can keep every new worker busy with requests nobody reads.
    try:
        with urllib.request.urlopen(f"{url}/healthz", timeout=seconds) as response:  # noqa: S310
            return bool(response.status == 200)
    except (OSError, urllib.error.URLError):
        return False


def _wait(
    ready: Callable[[float], bool],
    processes: Mapping[str, subprocess.Popen[bytes]],
    name: str,
    seconds: float,
) -> None:
    """Until ``ready`` (given the seconds left) is true, while every one of ``processes`` runs."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        for started, process in processes.items():
            if process.poll() is not None:
                raise RuntimeError(
                    f"{started} exited with status {process.returncode} while starting"
                )
        if ready(left):
            return
        time.sleep(0.1)
    raise RuntimeError(f"{name} did not start within {seconds:.0f} s")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--listen",
        default=os.environ.get("PETSTORE_LISTEN", "127.0.0.1:8080"),
        help="nginx's address (default 127.0.0.1:8080, or PETSTORE_LISTEN)",
    )
    parser.add_argument("--run-dir", type=Path, help="default: a new temporary directory")
    parser.add_argument("--workers", type=int, help="default: cores + 1 (WEB_CONCURRENCY)")
    parser.add_argument("--migrate", action="store_true", help="apply migrations first")
    parser.add_argument(
        "--drain-seconds",
        type=float,
        default=DRAIN_SECONDS,
        help=f"on SIGTERM, /readyz answers 503 this long before the stack stops ({DRAIN_SECONDS})",
    )
    options = parser.parse_args(argv)

    missing = [name for name in REQUIRED if not os.environ.get(name)]
    if missing:
        print(f"make serve needs {', '.join(missing)} in the environment.", file=sys.stderr)
        return 2
    root = code_root()
    # A run directory of our own is removed on the way out; one given to us is kept.
    run_dir = options.run_dir or Path(tempfile.mkdtemp(prefix="petstore-front-"))
    # One directory of metrics for gunicorn's workers and Celery's, read by every scrape.
    metrics_dir = os.environ.get(metrics_directory.VARIABLE) or run_dir / "metrics"
    env = {
        "DEBUG": "0",
        **os.environ,
        metrics_directory.VARIABLE: str(metrics_directory.fresh(Path(metrics_dir))),
    }
    if options.migrate:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--verbosity", "0"],
            cwd=root,
            env=env,
            check=True,
        )
    try:
        front = start_front(
            env=env,
            listen=options.listen,
            run_dir=run_dir,
            workers=options.workers,
            log_to_files=False,
            root=root,
        )
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        if options.run_dir is None:
            shutil.rmtree(run_dir, ignore_errors=True)
        return 1
    workers = SupervisedWorkers(env, run_dir, root=root)
    print(
        f"Serving on {front.url} (nginx → gunicorn at {front.socket_path}), webhooks from "
        "Celery workers; Ctrl-C stops, SIGTERM drains then stops."
    )
    host = Host(front, workers, run_dir / DRAIN_FILE, options.drain_seconds)
    status = host.run(run_dir / SERVE_PID)
    if options.run_dir is None:
        shutil.rmtree(run_dir, ignore_errors=True)
    return status


def code_root() -> Path:
    """The code's directory as the shell or the service manager names it (``$PWD``), which may
    be a symlink a release repoints (``deploy.release``); else where this file is."""
    named = os.environ.get("PWD", "")
    if named and os.path.isdir(named) and os.path.samefile(named, ROOT):
        return Path(named)
    return ROOT


if __name__ == "__main__":
    sys.exit(main())
