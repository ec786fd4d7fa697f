"""When each key was last used (``ApiKey.last_used_at``), recorded without a write per request.

The limiter's check says when a key's use is due to be recorded: once in each
``LAST_USE_SECONDS`` across every process. A key's first use is written at once, and its record
in Redis marked used; later uses wait in this process and are written together, one UPDATE for
every key that waited in one minute, to that minute, by the first use recorded ``FLUSH_SECONDS``
or more after the first that waited. A busy service's thousands of keys then
cost a query now and then, not a query each; a process that stops loses at most its last few
seconds of last uses.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime

from apikeys import keyring
from apikeys.models import ApiKey
from apikeys.records import KeyRecord
from apikeys.windows import MINUTE

FLUSH_SECONDS = 10.0
# Keys in one UPDATE (SQLite allows a few hundred parameters a statement).
BATCH = 500


class LastUse:
    def __init__(self) -> None:
        self._waiting: dict[int, int] = {}  # key id -> the minute it was used in
        self._since = 0.0
        self._lock = threading.Lock()

    def record(self, record: KeyRecord, digest: str, now: float) -> None:
        """Record ``record``'s key as used at ``now`` (Unix seconds)."""
        if not record.used:
            ApiKey.objects.touch([record.id], datetime.fromtimestamp(now, UTC))
            keyring.mark_used(digest, record)
            return
        with self._lock:
            if not self._waiting:
                self._since = now
            self._waiting.setdefault(record.id, int(now // MINUTE))
            if now - self._since < FLUSH_SECONDS:
                return
            waiting, self._waiting = self._waiting, {}
        by_minute: dict[int, list[int]] = {}
        for key_id, minute in waiting.items():
            by_minute.setdefault(minute, []).append(key_id)
        for minute, key_ids in sorted(by_minute.items()):
            for start in range(0, len(key_ids), BATCH):
                at = datetime.fromtimestamp(minute * MINUTE, UTC)
                ApiKey.objects.touch(key_ids[start : start + BATCH], at)

    def clear(self) -> None:
        """Drop the uses waiting (a test's, before the next test)."""
        with self._lock:
            self._waiting = {}


last_use = LastUse()
