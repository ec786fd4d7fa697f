"""The database: DATABASE_URL, or SQLite in the checkout, each tuned for how this service uses
it."""

from __future__ import annotations

import dj_database_url

from petstore.settings.base import BASE_DIR
from petstore.settings.environment import env_bool, env_int

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 600),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A database that is down must answer 503 quickly, not hang a worker.
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].setdefault("connect_timeout", 3)
    # …and a runaway query must not hold one either.
    DATABASES["default"]["OPTIONS"].setdefault(
        "options", f"-c statement_timeout={env_int('DATABASE_STATEMENT_TIMEOUT_MS', 5000)}"
    )
    if env_bool("DATABASE_PREPARED_STATEMENTS", True):
        # Values sent apart from the SQL, and a statement run a few times prepared once per
        # connection: PostgreSQL stops parsing and planning the same few queries on every
        # request. Django turns both off by default for connection poolers in transaction mode
        # (PgBouncer before 1.21), which this deployment does not use (persistent
        # connections); set DATABASE_PREPARED_STATEMENTS=0 behind one.
        DATABASES["default"]["OPTIONS"].setdefault("server_side_binding", True)
        DATABASES["default"]["OPTIONS"].setdefault("prepare_threshold", 5)
        # …but planned for each request's own values: a generic plan for "status = $1" cannot
        # tell a status one pet in a thousand has from a common one, and would walk the whole
        # table for the rare one (seen at a million pets: 2.5 times slower than at a thousand).
        DATABASES["default"]["OPTIONS"]["options"] += " -c plan_cache_mode=force_custom_plan"

    if pool_size := env_int("DATABASE_POOL_SIZE", 0):
        # The webhook workers' greenlets (deploy.workers) would each open a connection, a
        # server process apiece; they borrow one from a pool for each step instead.
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": 1,
            "max_size": pool_size,
            "timeout": 10,
            # A pool that lost the server tries again within a second or two, rather than
            # backing off to minutes (psycopg_pool doubles its wait until this ends; a client
            # waiting starts it afresh): workers resume within seconds of the server's return.
            "reconnect_timeout": 2,
        }

elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded database must keep PostgreSQL's promises under `make run`'s threads: of
    # concurrent orders for one animal, one wins and the rest get 409, never "database is
    # locked". IMMEDIATE takes the write lock when a transaction begins, so a writer waits its
    # turn (up to the busy timeout) instead of failing to upgrade a read lock mid-transaction;
    # WAL lets readers go on while one writes.
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
