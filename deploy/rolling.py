"""gunicorn's hooks for replacing workers without a pause (deploy/gunicorn.conf.py).

- Each worker recycles after its own number of requests: the live workers' points are spread
  over the jitter's range, never equal, so that they do not restart together.
- A new worker loads the code the release directory holds when it is forked, not what the
  master loaded: a release that points the code's directory (a symlink) at new code, then
  adds workers, has them answer with the new code (``deploy.release``).
- A worker that has loaded the application says so with a file named by its pid in
  ``$PETSTORE_RUN_DIR/ready``, so that whoever replaces workers stops the old ones only once
  the new ones answer.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from wsgiref.util import setup_testing_defaults

# The tree the master loaded this module from: its modules are the ones a worker loads afresh.
LOADED_FROM = str(Path(__file__).resolve().parent.parent)
RUN_DIR = "PETSTORE_RUN_DIR"


def farthest(taken: Iterable[int], jitter: int) -> int:
    """The point in 0..jitter farthest from every one of ``taken`` (the lowest of equals)."""
    taken = list(taken)
    if not taken:
        return 0
    return max(range(jitter + 1), key=lambda point: (min(abs(point - t) for t in taken), -point))


def spread_recycling(server: Any, worker: Any) -> None:
    """pre_fork, in the master: the worker's recycling point, away from its live siblings'."""
    base, jitter = server.cfg.max_requests, server.cfg.max_requests_jitter
    if base <= 0:
        return
    taken = [sibling.max_requests - base for sibling in server.WORKERS.values()]
    worker.max_requests = base + farthest(taken, jitter)


def load_afresh(server: Any, worker: Any) -> None:
    """post_fork, in the new worker: forget the project's modules the master had imported
    (its configuration's), and import from the release directory as it now resolves."""
    release = os.path.realpath(server.cfg.chdir)
    for name, module in list(sys.modules.items()):
        if _from_tree(module, LOADED_FROM):
            del sys.modules[name]
    stale = {server.cfg.chdir, LOADED_FROM, release}
    sys.path[:] = [release, *(entry for entry in sys.path if entry not in stale)]
    os.chdir(release)


def _from_tree(module: Any, tree: str) -> bool:
    file = getattr(module, "__file__", None)
    return isinstance(file, str) and os.path.realpath(file).startswith(tree + os.sep)


def ready_marker(pid: int, run_dir: Path | None = None) -> Path | None:
    """The file that says process ``pid`` answers, in ``run_dir`` or this process's run
    directory (``$PETSTORE_RUN_DIR``), when there is one."""
    run_dir = run_dir or Path(os.environ.get(RUN_DIR) or ".")
    return run_dir / "ready" / str(pid) if str(run_dir) != "." else None


def mark_ready(worker: Any) -> None:
    """post_worker_init: the application is loaded and warmed; this worker answers from now
    on."""
    warm_up(worker.wsgi)
    marker = ready_marker(worker.pid)
    if marker is not None:
        marker.parent.mkdir(exist_ok=True)
        marker.touch()


def warm_up(application: Any) -> None:
    """One /readyz through the application before any client's request: it imports every view
    (the URLconf), runs each middleware once and opens the database and Redis connections, which
    a fresh worker's first requests would otherwise wait for; and makes the digest of the
    answers' shape (petstore.representation), which the first conditional GET or idempotent
    POST would."""
    from django.conf import settings

    from petstore import representation

    hosts = [host for host in settings.ALLOWED_HOSTS if host and not host.startswith((".", "*"))]
    environ: dict[str, Any] = {}
    setup_testing_defaults(environ)
    environ.update(PATH_INFO="/readyz", HTTP_HOST=(hosts or ["localhost"])[0])
    body = application(environ, lambda status, headers, exc_info=None: None)
    for _ in body:
        pass
    getattr(body, "close", lambda: None)()
    representation.shape()


def forget_worker(worker: Any) -> None:
    """child_exit, in the master: the worker is gone, and so is its mark."""
    marker = ready_marker(worker.pid)
    if marker is not None:
        marker.unlink(missing_ok=True)
