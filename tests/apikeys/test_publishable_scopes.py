"""Publishable keys hold no ``webhooks:*`` and no ``:write`` scope (``petstore.scopes``),
refused wherever keys are made, and taken away from the keys that held one."""

from __future__ import annotations

import dataclasses
from http import HTTPStatus
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from apikeys import keyring
from apikeys.models import ApiKey
from apikeys.records import KeyRecord
from apikeys.services import apikey_issue
from petstore import redis
from petstore.scopes import PUBLISHABLE_SCOPES, Scope
from tests.admin_pages import form_data
from tests.apikeys.test_admin import KEYS, issue

SHELTER = "https://shelter.example"
REFUSED = sorted(set(Scope.values) - PUBLISHABLE_SCOPES)


def test_publishable_keys_may_hold_only_reads_of_what_is_not_webhooks():
    assert {"pets:read", "orders:read", "events:read"} == PUBLISHABLE_SCOPES


@pytest.mark.parametrize("scope", REFUSED)
def test_the_model_refuses_a_publishable_key_with_such_a_scope(make_account, scope):
    with pytest.raises(ValidationError, match=scope):
        apikey_issue(
            account=make_account(),
            kind="publishable",
            scopes=["pets:read", scope],
            origins=[SHELTER],
        )

    assert not ApiKey.objects.exists()


@pytest.mark.parametrize("scope", ["webhooks:read", "webhooks:write"])
def test_the_command_refuses_a_publishable_key_with_a_webhooks_scope(db, scope):
    args = ["--plan", "free", "--publishable", "--origin", SHELTER, "--scopes", scope]

    with pytest.raises(CommandError, match=scope):
        call_command("createapikey", *args, stdout=StringIO())

    assert not ApiKey.objects.exists()


def test_the_admin_refuses_to_issue_a_publishable_key_with_webhooks_read(
    manager_client, make_account
):
    account = make_account()

    _, response = issue(
        manager_client,
        account,
        kind="publishable",
        scopes=["pets:read", "webhooks:read"],
        origins=SHELTER,
    )

    assert response.status_code == HTTPStatus.OK
    assert "webhooks:read" in response.content.decode()
    assert not ApiKey.objects.filter(account=account).exists()


def test_the_admin_refuses_to_give_a_publishable_key_webhooks_read(manager_client, make_key):
    make_key(kind="publishable", origins=(SHELTER,))
    key = ApiKey.objects.get()
    url = f"{KEYS}{key.pk}/change/"

    response = manager_client.post(
        url, form_data(manager_client.get(url), scopes=["pets:read", "webhooks:read"])
    )

    assert response.status_code == HTTPStatus.OK
    assert "holds no webhooks scope" in response.content.decode()
    key.refresh_from_db()
    assert key.scope_list == ["pets:read"]


def test_the_database_refuses_a_publishable_key_with_webhooks_read(make_key):
    make_key(kind="publishable", origins=(SHELTER,))

    with pytest.raises(IntegrityError), transaction.atomic():
        ApiKey.objects.filter(kind="publishable").update(scopes="pets:read webhooks:read")


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_migration_takes_webhooks_read_away_and_the_record_is_read_again(make_key):
    make_key(kind="publishable", origins=(SHELTER,))
    make_key()
    publishable = ApiKey.objects.select_related("account__plan").get(kind="publishable")
    # Its record as the release before kept it, made with today's models, which the tables of
    # 0005 may not match (a window added since).
    old_scopes = frozenset({"events:read", "pets:read", "webhooks:read"})
    stale = dataclasses.replace(KeyRecord.of(publishable), scope_set=old_scopes)
    executor = MigrationExecutor(connection)
    executor.migrate([("apikeys", "0005_event_and_webhook_scopes")])
    ApiKey.objects.filter(kind="publishable").update(scopes=" ".join(sorted(old_scopes)))
    record = keyring.record_name(publishable.digest)
    client = redis.client()
    assert client is not None
    client.execute("SET", record, stale.wire())

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # every app, as `migrate` does

    kept = ApiKey.objects.get(kind="publishable")
    assert kept.scope_list == ["events:read", "pets:read"]
    assert ApiKey.objects.get(kind="secret").scope_list == sorted(
        s for s in Scope.values if s != "categories:write"
    )
    assert client.execute("EXISTS", record) == 0
