"""The process's one connection to Redis (``client()``, for ``settings.REDIS_URL``): one
socket, hiredis's parser (redis-py's own), one command at a time, and what it remembers of an
outage. The limiter, the key generation, the usage tallies, ``/readyz`` and the admin's sign-in
limit all use it. Ours rather than redis-py, whose import makes every worker much larger
(README, "Choices worth knowing"), for one round trip a request to one server.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import struct
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar
from urllib.parse import parse_qs, unquote, urlsplit

import hiredis
from django.conf import settings

from petstore.metrics import REDIS_FAILURES

logger = logging.getLogger("petstore.redis")

# While Redis is unreachable, those who fall back without it try it again this often (real
# seconds), not on every request.
RETRY_SECONDS = 2.0
T = TypeVar("T")


class RedisError(Exception):
    """Redis could not answer: unreachable, too slow, or it refused the command."""


class ConnectionFailed(RedisError):
    pass


class Unavailable(RedisError):
    """No Redis to ask: none is configured, or an outage rests."""


class ReplyError(RedisError):
    """Redis answered with an error (``NOSCRIPT …``, ``WRONGTYPE …``)."""


class RedisClient:
    def __init__(
        self,
        url: str,
        *,
        socket_timeout: float = 0.5,
        socket_connect_timeout: float = 0.5,
    ) -> None:
        self.url = url
        self.socket_timeout = socket_timeout
        self.socket_connect_timeout = socket_connect_timeout
        parts = urlsplit(url)
        query = parse_qs(parts.query)
        self._scheme = parts.scheme
        self._address: str | tuple[str, int]
        if parts.scheme == "unix":
            self._address = unquote(parts.path)
            database = query.get("db", ["0"])[0]
        elif parts.scheme in ("redis", "rediss"):
            self._address = (parts.hostname or "localhost", parts.port or 6379)
            database = parts.path.lstrip("/") or query.get("db", ["0"])[0]
        else:
            raise ValueError(f"not a Redis URL: {parts.scheme}://…")
        self._database = int(database)
        self._username = unquote(parts.username) if parts.username else None
        self._password = unquote(parts.password) if parts.password else None
        self._socket: socket.socket | None = None
        self._reader = hiredis.Reader()
        # Each process has one client; the lock makes it safe for threaded servers (runserver).
        self._lock = threading.Lock()
        # The outage in course, if any (monotonic seconds), and how many there have been:
        # what a process cached before one cannot be trusted after it.
        self.down_since: float | None = None
        self.outages = 0
        self._retry_at = 0.0
        os.register_at_fork(after_in_child=self._forget_parents_socket)

    def execute(self, *command: str | int | bytes) -> Any:
        """Send one command and return its reply (bytes, int, list, or None)."""
        return self.execute_packed(hiredis.pack_command(command))  # type: ignore[arg-type]

    # The commands petstore.conditional sends, typed and named as redis-py names them.

    def mget(self, names: Sequence[str]) -> list[bytes | None]:
        """The values of ``names``, None for each that has none."""
        values: list[bytes | None] = self.execute("MGET", *names)
        return values

    def mset(self, values: Mapping[str, str | bytes]) -> None:
        self.execute("MSET", *(part for pair in values.items() for part in pair))

    def set(self, name: str, value: str | bytes, *, ex: int | None = None) -> None:
        """``name`` set to ``value``, expiring after ``ex`` seconds when given."""
        if ex is None:
            self.execute("SET", name, value)
        else:
            self.execute("SET", name, value, "EX", ex)

    def evalsha(self, sha: str, source: str, *arguments: str | int | bytes) -> Any:
        """Run the script named ``sha``, loading ``source`` first if this server does not know
        it yet (it is new, or restarted)."""
        try:
            return self.execute("EVALSHA", sha, *arguments)
        except ReplyError as exc:
            if not str(exc).startswith("NOSCRIPT"):
                raise
        self.execute("SCRIPT", "LOAD", source)
        return self.execute("EVALSHA", sha, *arguments)

    def execute_packed(self, packed: bytes) -> Any:
        """``execute`` for a command already in the protocol's form (RESP). Failing to reach
        the server starts an outage (``failed``); its answer ends one (``answered``)."""
        try:
            reply = self._send(packed)
        except ConnectionFailed as exc:
            self.failed(exc)
            raise
        self.answered()
        return reply

    def _send(self, packed: bytes) -> Any:
        with self._lock:
            for attempt in (1, 2):
                reused = self._socket is not None
                try:
                    return self._round_trip(packed)
                except (ConnectionResetError, BrokenPipeError, EOFError) as exc:
                    self.close()
                    # A connection kept from an earlier request that the server (or a proxy)
                    # closed in between, say for idleness, never took the command: send it
                    # once more on a new one.
                    if reused and attempt == 1:
                        continue
                    raise ConnectionFailed(str(exc) or type(exc).__name__) from exc
                except BlockingIOError as exc:  # the kernel's timeout (_set_kernel_timeouts)
                    self.close()
                    raise ConnectionFailed(f"timed out after {self.socket_timeout} s") from exc
                except OSError as exc:  # refused, unreachable, timed out
                    self.close()
                    raise ConnectionFailed(str(exc) or type(exc).__name__) from exc
        raise AssertionError("unreachable")

    # Outages, kept here so that all who fall back without Redis (the limiter, the usage
    # tallies, the key generation) fall back and return together.

    def resting(self) -> bool:
        """Whether an outage is in course and it is too soon to try Redis again."""
        return self.down_since is not None and time.monotonic() < self._retry_at

    def failed(self, exc: Exception) -> None:
        REDIS_FAILURES.inc()
        with self._lock:
            self._retry_at = time.monotonic() + RETRY_SECONDS
            if self.down_since is None:
                self.down_since = time.monotonic()
                self.outages += 1
                logger.warning(
                    "Redis is unreachable (%s): rate limits are now counted per process "
                    "until it returns",
                    exc,
                )

    def answered(self) -> None:
        if self.down_since is None:
            return
        with self._lock:
            if self.down_since is not None:
                logger.warning(
                    "Redis is reachable again after %.0f s: rate limits are shared again",
                    time.monotonic() - self.down_since,
                )
                self.down_since = None

    def _round_trip(self, packed: bytes) -> Any:
        sock = self._socket or self._connect()
        sock.sendall(packed)
        reply = self._read(sock)
        if isinstance(reply, hiredis.ReplyError):
            raise ReplyError(str(reply))
        return reply

    def _read(self, sock: socket.socket) -> Any:
        reader = self._reader
        while (reply := reader.gets()) is False:
            data = sock.recv(65536)
            if not data:
                raise EOFError("Redis closed the connection")
            reader.feed(data)
        return reply

    def _connect(self) -> socket.socket:
        self._reader = hiredis.Reader()  # nothing half-read from an earlier connection
        if isinstance(self._address, str):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(self.socket_connect_timeout)
            sock.connect(self._address)
        else:
            sock = socket.create_connection(self._address, timeout=self.socket_connect_timeout)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if self._scheme == "rediss":
            import ssl  # only for TLS: most deployments reach Redis on a private network

            context = ssl.create_default_context()
            sock = context.wrap_socket(sock, server_hostname=self._address[0])
            sock.settimeout(self.socket_timeout)
        else:
            _set_kernel_timeouts(sock, self.socket_timeout)
        self._socket = sock
        try:
            if self._password is not None:
                credentials = [self._username, self._password] if self._username else []
                self._expect_ok(sock, "AUTH", *(credentials or [self._password]))
            if self._database:
                self._expect_ok(sock, "SELECT", self._database)
        except BaseException:
            self.close()
            raise
        return sock

    def _expect_ok(self, sock: socket.socket, *command: str | int) -> None:
        sock.sendall(hiredis.pack_command(command))  # type: ignore[arg-type]
        reply = self._read(sock)
        if isinstance(reply, hiredis.ReplyError):
            raise ConnectionFailed(f"{command[0]} refused: {reply}")

    def _forget_parents_socket(self) -> None:
        # A forked worker must not share its parent's socket: replies would cross.
        self._socket = None
        self._reader = hiredis.Reader()
        self._lock = threading.Lock()

    def close(self) -> None:
        sock, self._socket = self._socket, None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.close()


def _set_kernel_timeouts(sock: socket.socket, seconds: float | None) -> None:
    """Make ``sock`` blocking, with the kernel's own send and receive timeouts.

    A socket with a Python timeout (``settimeout``) asks ``poll`` before every send and every
    receive: four system calls a round trip where a blocking socket makes two. The kernel's
    timeouts keep the same bound: a receive or send that waits longer fails with EAGAIN, which
    ``execute_packed`` reports as a timeout. (TLS keeps Python's timeout: the ssl module does
    not expect EAGAIN from a blocking socket.)
    """
    sock.settimeout(None)
    if seconds is None:
        return
    whole = int(seconds)
    timeval = struct.pack("ll", whole, int((seconds - whole) * 1_000_000))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, timeval)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, timeval)


_shared: RedisClient | None = None


def client() -> RedisClient | None:
    """The process's client of ``settings.REDIS_URL``, or None without one (embedded mode).

    Built again only when the setting names another server than the one it was built for,
    which only tests do while the process runs.
    """
    global _shared
    url = settings.REDIS_URL
    if not url:
        return None
    shared = _shared
    if shared is None or shared.url != url:
        if shared is not None:
            shared.close()
        timeout = settings.REDIS_TIMEOUT_SECONDS
        shared = _shared = RedisClient(url, socket_timeout=timeout, socket_connect_timeout=timeout)
    return shared


def usable() -> RedisClient:
    """The process's client while Redis may be asked; ``Unavailable`` without Redis (embedded
    mode) or while an outage rests."""
    shared = client()
    if shared is None or shared.resting():
        raise Unavailable("no Redis to ask now")
    return shared


def forget() -> None:
    """Close the process's client and forget its outages: the next ``client()`` is new."""
    global _shared
    shared, _shared = _shared, None
    if shared is not None:
        shared.close()


def or_else(use: Callable[[RedisClient], T], fallback: Callable[[], T]) -> T:
    """``use`` the process's client while Redis answers; ``fallback`` without Redis, while an
    outage rests, or when this attempt fails."""
    try:
        return use(usable())
    except RedisError:
        return fallback()
