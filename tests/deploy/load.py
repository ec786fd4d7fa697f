"""Steady reads and writes through nginx, every answer timed: what a partner sees meanwhile."""

from __future__ import annotations

import http.client
import itertools
import json
import threading
import time
from dataclasses import dataclass, field


@dataclass
class Load:
    """``readers`` threads listing and fetching pets, ``writers`` threads adding them, one new
    connection a request (as nginx's clients do), until stopped."""

    port: int
    key: str
    category: int
    readers: int = 2
    writers: int = 2
    # (when the answer came, what it was: a status, or the exception's name).
    answers: list[tuple[float, int | str]] = field(default_factory=list)
    created: dict[int, str] = field(default_factory=dict)  # pet id: the name it was sent
    _stop: threading.Event = field(default_factory=threading.Event)
    _threads: list[threading.Thread] = field(default_factory=list)
    _numbers: itertools.count[int] = field(default_factory=itertools.count)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> None:
        roles = [self._read] * self.readers + [self._write] * self.writers
        self._threads = [threading.Thread(target=role, daemon=True) for role in roles]
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=60)

    def count(self) -> int:
        with self._lock:
            return len(self.answers)

    def longest_gap(self, since: float = 0.0) -> tuple[float, float]:
        """The longest time between two answers after ``since``, whoever they came to, and
        when it began."""
        times = sorted(at for at, _ in self.answers if at >= since)
        gaps = ((later - earlier, earlier) for earlier, later in itertools.pairwise(times))
        return max(gaps, default=(0.0, 0.0))

    def _call(self, method: str, path: str, body: object = None) -> tuple[int | str, object]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Authorization": f"Bearer {self.key}"}
        data = None
        if body is not None:
            data, headers["Content-Type"] = json.dumps(body), "application/json"
        try:
            connection.request(method, path, data, headers)
            response = connection.getresponse()
            outcome: int | str = response.status
            raw = response.read()
            got = json.loads(raw) if raw else None
        except (OSError, http.client.HTTPException, ValueError) as exc:
            outcome, got = type(exc).__name__, None
        finally:
            connection.close()
        with self._lock:
            self.answers.append((time.monotonic(), outcome))
        return outcome, got

    def _read(self) -> None:
        while not self._stop.is_set():
            self._call("GET", "/v1/pets?limit=20")
            with self._lock:
                latest = max(self.created, default=None)
            if latest is not None:
                self._call("GET", f"/v1/pets/{latest}")

    def _write(self) -> None:
        while not self._stop.is_set():
            name = f"Release pet {next(self._numbers)}"
            pet = {"name": name, "categoryId": self.category}
            status, body = self._call("POST", "/v1/pets", pet)
            if status == 201 and isinstance(body, dict):
                with self._lock:
                    self.created[body["id"]] = name
