"""`make run` prints a working admin login for its embedded database, and only there."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from tests.embedded import embedded_env, manage


def test_the_embedded_database_gets_one_admin_with_a_random_password(tmp_path):
    env = embedded_env(tmp_path / "db.sqlite3")
    manage(env, "migrate", "--verbosity", "0")

    first = manage(env, "local_admin").strip()
    again = manage(env, "local_admin").strip()
    other = embedded_env(tmp_path / "other" / "db.sqlite3")
    (tmp_path / "other").mkdir()
    manage(other, "migrate", "--verbosity", "0")

    assert first.startswith("user admin, password ")
    assert again == first  # made once: every `make run` shows the same login
    assert manage(other, "local_admin").strip() != first  # random, not a fixed password
    password = first.removeprefix("user admin, password ")
    signed_in = manage(
        env,
        "shell",
        "-c",
        "from django.contrib.auth import authenticate; "
        f"u = authenticate(username='admin', password='{password}'); "
        "print(u is not None and u.is_superuser)",
    )
    assert signed_in.strip().splitlines()[-1] == "True"
    assert oct((tmp_path / ".local-admin-password").stat().st_mode & 0o777) == "0o600"


def test_it_refuses_anything_but_the_embedded_database(db):
    # The suite runs with production settings: DEBUG off, PostgreSQL.
    with pytest.raises(CommandError, match="embedded database only"):
        call_command("local_admin")
