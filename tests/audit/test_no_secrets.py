"""The trail keeps no key material and no secret: not the raw key, nor its digest, nor an
endpoint's secret, nor a password, in any field of any entry."""

from __future__ import annotations

import json
import re
from http import HTTPStatus

import pytest
from django.core import serializers
from django.test import Client

from apikeys.models import ApiKey
from audit.models import Entry
from audit.services import record
from tests.audit.conftest import run_action
from webhooks.models import Endpoint

pytestmark = pytest.mark.django_db

KEY_RE = re.compile(r"petstore_live_[0-9A-Za-z]{33}")


@pytest.fixture(autouse=True)
def _public_addresses_only(settings, monkeypatch):
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = False
    real = __import__("socket").getaddrinfo

    def getaddrinfo(host, *args, **kwargs):
        if host.endswith("example.com"):
            return [(2, 1, 6, "", ("93.184.215.14", 443))]
        return real(host, *args, **kwargs)

    monkeypatch.setattr("socket.getaddrinfo", getaddrinfo)


def test_no_entry_holds_a_key_its_digest_a_secret_or_a_password(
    manager_desk, make_account, client, account_manager
):
    account = make_account(name="Paws")
    url = f"/admin/apikeys/account/{account.pk}/issue-key/"
    form = manager_desk.get(url)
    issued = manager_desk.post(
        url, {"name": "web", "one_time_token": form.context["one_time_token"]}
    )
    [raw] = set(KEY_RE.findall(issued.content.decode()))
    made = client.post(
        "/v1/webhook_endpoints",
        json.dumps({"url": "https://hooks.example.com/in", "events": ["pet.created"]}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {raw}"},
    )
    assert made.status_code == HTTPStatus.CREATED
    endpoint = Endpoint.objects.get()
    run_action(manager_desk, "/admin/webhooks/endpoint/", "rotate_secret", [endpoint])
    endpoint.refresh_from_db()
    Client().post("/admin/login/", {"username": "manager", "password": "a-guessed-password"})

    secrets = {
        "raw key": raw,
        "digest": ApiKey.objects.get().digest,
        "first secret": made.json()["secret"],
        "rotated secret": endpoint.secret,
        "password tried": "a-guessed-password",
    }
    trail = serializers.serialize("json", Entry.objects.all())
    actions = set(Entry.objects.values_list("action", flat=True))
    assert {"apikey.issued", "endpoint.created", "endpoint.secret_rotated"} <= actions
    assert "staff.sign_in_failed" in actions
    assert [name for name, value in secrets.items() if value in trail] == []


def test_a_change_naming_a_secret_is_refused(db):
    with pytest.raises(ValueError, match="secret"):
        record(actor="system", action="endpoint.created", changes={"secret": [None, "x"]})
