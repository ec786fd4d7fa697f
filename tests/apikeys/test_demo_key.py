"""`make run` prints the same working demo key on every run, kept beside its embedded database,
and a new one for the same account when asked (`make run NEW_KEY=1`)."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from django.core.management import CommandError, call_command

from apikeys.keys import generate_key
from tests.embedded import EmbeddedServer, embedded_env, manage, runserver


def demo_key(env: dict[str, str], *args: str) -> str:
    return manage(env, "demo_key", *args).splitlines()[-1]


def test_every_run_prints_the_same_working_key_and_new_key_issues_another(tmp_path):
    env = embedded_env(tmp_path / "db.sqlite3")
    manage(env, "migrate", "--verbosity", "0")
    manage(env, "seed_demo")
    kept = tmp_path / ".local-demo-key"

    first = demo_key(env)
    again = demo_key(env)
    assert again == first
    assert oct(kept.stat().st_mode & 0o777) == "0o600"

    with runserver(env, first) as server:
        status, order = server.call("POST", "/v1/store/orders", {"petId": 1})
        assert status == HTTPStatus.CREATED, order

        new = demo_key(env, "--new")
        renewed = EmbeddedServer(server.url, new)
        status, orders = renewed.call("GET", "/v1/store/orders")
        refused, _ = server.call("GET", "/v1/store/orders")

    assert new != first
    assert kept.read_text().strip() == new  # the new one is the one kept
    assert status == HTTPStatus.OK
    assert [each["id"] for each in orders] == [order["id"]]  # yesterday's order stays
    assert refused == HTTPStatus.UNAUTHORIZED  # the old key is revoked

    # A key this database never issued (another database's) is not printed as if it worked.
    foreign = generate_key(publishable=False)
    kept.write_text(foreign + "\n")
    assert demo_key(env) not in {foreign, new}


def test_it_refuses_anything_but_the_embedded_database(db):
    # The suite runs with production settings: DEBUG off, PostgreSQL.
    with pytest.raises(CommandError, match="embedded database only"):
        call_command("demo_key")
