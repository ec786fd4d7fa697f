"""The embedded set-up of `make run` (SQLite, no Redis, DEBUG on), run as a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def embedded_env(database: Path) -> dict[str, str]:
    """The environment `make run` gives its commands, with its database at ``database``."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY"}
    }
    return {**env, "DATABASE_URL": f"sqlite:///{database}", "DEBUG": "1", "REQUEST_LOG": "0"}


def manage(env: dict[str, str], *args: str) -> str:
    """Run ``manage.py *args``; its standard output."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
