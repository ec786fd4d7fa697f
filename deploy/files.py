"""Files one process writes while another reads them (pid files, rendered configuration): each
is written whole or not at all, and a reader takes one missing or unreadable as "not yet"."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_whole(path: Path, text: str) -> None:
    """``text`` into ``path`` by a rename: a reader finds the old content or the new, never a
    truncated file (what ``Path.write_text`` leaves between its truncation and its write)."""
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(descriptor, "w") as file:
            file.write(text)
        # Readable as write_text would have made it: nginx's workers read what is rendered.
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def read_pid(path: Path) -> int | None:
    """The process id ``path`` holds; None while it is missing or holds no number."""
    try:
        return int(path.read_text())
    except (OSError, ValueError):
        return None
