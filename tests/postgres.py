"""A PostgreSQL server of a test's own, on loopback, for tests that stop and start one: the
machine's own server is shared, and is never the one a test takes down."""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.network import free_port
from tests.waiting import READY_SECONDS, wait_until

INSTALLS = Path("/usr/lib/postgresql")
# PostgreSQL refuses to run as root: as root, its programs run as this user.
OWNER = "postgres"


def server_binaries() -> Path:
    """The bin folder of the newest PostgreSQL installed here."""
    versions = [path for path in INSTALLS.glob("*") if (path / "bin" / "postgres").exists()]
    if not versions:
        raise AssertionError(
            f"No PostgreSQL server is installed under {INSTALLS}: `make services` installs one."
        )
    newest = max(versions, key=lambda path: tuple(int(part) for part in path.name.split(".")))
    return newest / "bin"


@dataclass
class Postgres:
    """A server on ``port`` whose data, socket and log live in ``directory``."""

    directory: Path
    port: int
    binaries: Path
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def data(self) -> Path:
        return self.directory / "data"

    @property
    def log(self) -> Path:
        return self.directory / "server.log"

    def url(self, database: str = "postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        """Start the server on its data and port, returning once it accepts connections."""
        assert self.process is None, "the server is running already"
        command = [str(self.binaries / "postgres"), "-D", str(self.data), "-p", str(self.port)]
        command += ["-k", str(self.directory), "-c", "listen_addresses=127.0.0.1"]
        # Nothing here outlives the test, so nothing needs to reach the disk safely.
        command += ["-c", "fsync=off", "-c", "synchronous_commit=off"]
        command += ["-c", "full_page_writes=off"]
        with self.log.open("ab") as log:
            process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, **_as_owner(self.directory)
            )
        self.process = process
        try:
            wait_until(
                lambda: process.poll() is not None or self.ready(),
                f"PostgreSQL on port {self.port} to accept connections",
            )
        except AssertionError as error:
            self.stop()
            raise AssertionError(f"{error}\n{self.log_text()}") from None
        if process.poll() is not None:
            self.process = None
            raise AssertionError(
                f"PostgreSQL exited with status {process.returncode}:\n{self.log_text()}"
            )

    def stop(self) -> None:
        """Stop the server as an operator would (fast shutdown), returning once it has exited."""
        if self.process is None:
            return
        process, self.process = self.process, None
        # SIGINT is a fast shutdown: open sessions are ended, the data is left consistent.
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=READY_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def ready(self) -> bool:
        """Whether this server, and not another on its port, accepts connections."""
        try:
            lines = (self.data / "postmaster.pid").read_text().splitlines()
        except FileNotFoundError:
            return False
        # The postmaster's own status, its file's eighth line: "ready" once it takes connections.
        if len(lines) < 8 or lines[7].strip() != "ready":
            return False
        command = [str(self.binaries / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port)]
        return subprocess.run([*command, "-q"], check=False).returncode == 0

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else "(no log)"


@contextmanager
def postgres_server() -> Iterator[Postgres]:
    """A fresh server (trust authentication, superuser postgres), running; stopped and its
    data deleted on the way out, however the test went."""
    directory = Path(tempfile.mkdtemp(prefix="petstore-postgres-"))
    server = Postgres(directory, free_port(), server_binaries())
    try:
        _give_to_owner(directory)
        _initdb(server)
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)


def _initdb(server: Postgres) -> None:
    command = [str(server.binaries / "initdb"), "-D", str(server.data), "-U", "postgres"]
    command += ["--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"]
    done = subprocess.run(
        command, capture_output=True, text=True, check=False, **_as_owner(server.directory)
    )
    if done.returncode != 0:
        raise AssertionError(f"initdb failed ({done.returncode}):\n{done.stdout}{done.stderr}")


def _give_to_owner(directory: Path) -> None:
    # As root, the server runs as OWNER, which must own its folder (mode 0700, as mkdtemp made).
    if os.geteuid() == 0:
        owner = _owner()
        os.chown(directory, owner.pw_uid, owner.pw_gid)


def _as_owner(directory: Path) -> dict[str, Any]:
    """Popen's arguments that run a PostgreSQL program as OWNER when we are root."""
    # Only the PATH: a PGDATA, PGPORT or PGHOST of the caller's must not steer the server.
    arguments: dict[str, Any] = {"cwd": directory, "env": {"PATH": os.environ.get("PATH", "")}}
    if os.geteuid() == 0:
        owner = _owner()
        arguments.update(user=owner.pw_uid, group=owner.pw_gid, extra_groups=[])
    return arguments


def _owner() -> pwd.struct_passwd:
    try:
        return pwd.getpwnam(OWNER)
    except KeyError:
        raise AssertionError(
            f"As root, PostgreSQL runs as the user {OWNER}, which this machine does not have."
        ) from None
