"""Request limits: one algorithm, behind one interface, with two backends.

**The algorithm.** A subject (an account, or a client address) is admitted only if each of its
windows has room: those of ``apikeys.windows.WINDOWS``, aligned to the clock, declared there
once and carried everywhere as tuples in that order, made by window name (``Limits.of``); a
refused request consumes nothing. A subject whose policy bans: the caller that makes
``BAN_STRIKES`` refused requests within one minute is banned for ``BAN_BASE_SECONDS``, doubling
with each further ban within ``BAN_MEMORY_SECONDS`` of the last, up to ``BAN_MAX_SECONDS``.

**The parts.** ``policy`` holds the values (policies, subjects, windows, decisions) and
``fields`` the header fields made from them. ``counters`` names what a check touches and works
out the rules both backends apply (counter lifetimes, ban lengths). ``backends.redis`` runs the
check as one Lua script (``scripts/check.lua``), ``backends.memory`` takes the same steps in
process memory; ``limiter`` chooses between them and falls back to memory while Redis is
unreachable, where limits hold per process.

**Peeks.** ``GET /v1/rate_limit`` reads an account's windows and the caller's ban without
counting anything against them (``Limiter.peek``), in one round trip that counts the peek
against a small window of its own.

**Stale keys.** A check may carry the key generation its caller's cached key was read under
(``apikeys.keyring``); when that is no longer current the check counts nothing and says so, in
the same round trip.

**Keys not read yet.** A key this process has not read is found by its record in Redis
(``apikeys.keyring``) and counted in the same round trip (``Limiter.check_unread``): the script
reads the record by its fields' names and counts against the counters of the account it names,
whose names Python gives as templates the script fills in with the record's ids.

**Usage.** The same script tallies each account's requests per key and UTC day for the usage
history (``apikeys.usage.tallies`` names them and reads them back).

Every key of one account shares the hash tag ``{a<id>}``, so the script would run unchanged on
Redis Cluster, the key generation, the usage index and the check by record aside (global keys
and names the script makes, to be moved to each account's slot).
"""

from apikeys.limiter.counters import Outcome
from apikeys.limiter.limiter import (
    Usage,
    account_usage,
    account_usages,
    day_threshold_count,
    limiter,
)
from apikeys.limiter.policy import (
    BAN_STRIKES,
    PEEK_WINDOW,
    Ban,
    Decision,
    Policy,
    Standing,
    Subject,
)

__all__ = [
    "BAN_STRIKES",
    "PEEK_WINDOW",
    "Ban",
    "Decision",
    "Outcome",
    "Policy",
    "Standing",
    "Subject",
    "Usage",
    "account_usage",
    "account_usages",
    "day_threshold_count",
    "limiter",
]
