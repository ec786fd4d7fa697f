"""Bearer API keys: what is refused, what it costs, and when changes take effect."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import timedelta
from http import HTTPStatus

import pytest
from django.utils import timezone

from apikeys import keys
from apikeys.models import ApiKey
from apikeys.services import account_suspend, apikey_revoke
from tests.assertions import assert_error

URL = "/v1/pets"


def assert_unauthorized(response, message: str | None = None) -> None:
    body = assert_error(response, HTTPStatus.UNAUTHORIZED, "unauthorized")
    assert response["WWW-Authenticate"] == "Bearer"
    if message is not None:
        assert body["message"] == message


def flip_last_character(raw: str) -> str:
    return raw[:-1] + ("A" if raw[-1] != "A" else "B")


def test_it_accepts_a_valid_key(client, auth):
    response = client.get(URL, headers=auth)

    assert response.status_code == HTTPStatus.OK


def test_it_accepts_the_scheme_in_any_case(client, api_key):
    response = client.get(URL, headers={"Authorization": f"bearer {api_key}"})

    assert response.status_code == HTTPStatus.OK


def test_it_rejects_a_request_without_a_key(client, db):
    response = client.get(URL)

    assert_unauthorized(response)


@pytest.mark.parametrize("scheme", ["Basic", "Token", "Digest"])
def test_it_rejects_another_scheme(client, api_key, scheme):
    response = client.get(URL, headers={"Authorization": f"{scheme} {api_key}"})

    assert_unauthorized(response)


@pytest.mark.parametrize("header", ["Bearer", "Bearer ", "Bearer    "])
def test_it_rejects_an_empty_bearer_token(client, db, header):
    response = client.get(URL, headers={"Authorization": header})

    assert_unauthorized(response, "The bearer token is empty.")


# Each is built from a real, working key, so that only the named defect makes it fail.
MALFORMED: dict[str, Callable[[str], str]] = {
    "garbage": lambda key: "not-a-key",
    "another service's key": lambda key: "sk_live_" + key.removeprefix("petstore_live_"),
    "staging prefix in production": lambda key: key.replace("_live_", "_test_"),
    "too short": lambda key: key[:-1],
    "too long": lambda key: key + "x",
    "with a space inside": lambda key: key[:20] + " " + key[21:],
    "bad checksum": flip_last_character,
    "changed random part": lambda key: flip_last_character(key[:20]) + key[20:],
}


@pytest.mark.parametrize("make_token", MALFORMED.values(), ids=MALFORMED.keys())
def test_it_rejects_a_malformed_key_without_a_query(
    client, api_key, django_assert_num_queries, make_token
):
    token = make_token(api_key)
    assert token != api_key

    with django_assert_num_queries(0):
        response = client.get(URL, headers={"Authorization": f"Bearer {token}"})

    assert_unauthorized(response, "This is not a valid API key.")


def test_it_rejects_a_well_formed_but_unknown_key(client, db):
    unknown = keys.generate_key()
    assert keys.is_well_formed(unknown)

    # The second time, Redis already knows the digest as no key's.
    for _ in range(2):
        response = client.get(URL, headers={"Authorization": f"Bearer {unknown}"})

        assert_unauthorized(response, "This API key is not recognised.")


def test_it_rejects_a_revoked_key(client, auth, key_row):
    apikey_revoke(api_key=key_row)

    response = client.get(URL, headers=auth)

    assert_unauthorized(response)
    assert "revoked" in response.json()["message"]


def test_revocation_takes_effect_on_the_very_next_request(client, auth, key_row):
    assert client.get(URL, headers=auth).status_code == HTTPStatus.OK

    apikey_revoke(api_key=key_row)

    assert_unauthorized(client.get(URL, headers=auth))


def test_it_rejects_an_expired_key(client, make_key):
    raw = make_key(expires_in=timedelta(hours=1))
    headers = {"Authorization": f"Bearer {raw}"}
    assert client.get(URL, headers=headers).status_code == HTTPStatus.OK

    # As staff would, in the admin: the change reaches processes that cached the key.
    api_key = ApiKey.objects.get(digest=keys.digest(raw))
    api_key.expires_at = timezone.now() - timedelta(seconds=1)
    api_key.save()

    response = client.get(URL, headers=headers)
    assert_unauthorized(response)
    assert "expired" in response.json()["message"]


def test_it_rejects_a_key_of_a_suspended_account(client, auth, key_row):
    assert client.get(URL, headers=auth).status_code == HTTPStatus.OK

    account_suspend(account=key_row.account)

    response = client.get(URL, headers=auth)
    assert_unauthorized(response)
    assert "suspended" in response.json()["message"]


def test_suspending_an_account_refuses_every_one_of_its_keys(client, make_account, make_key):
    account = make_account()
    first, second = make_key(account=account), make_key(account=account)

    account.suspended_at = timezone.now()
    account.save()

    for raw in (first, second):
        assert_unauthorized(client.get(URL, headers={"Authorization": f"Bearer {raw}"}))


def test_it_keeps_other_keys_working_when_one_is_revoked(client, make_account, make_key):
    account = make_account()
    revoked, kept = make_key(account=account), make_key(account=account)
    found = ApiKey.objects.for_digest(keys.digest(revoked))
    assert found is not None

    apikey_revoke(api_key=found)

    assert_unauthorized(client.get(URL, headers={"Authorization": f"Bearer {revoked}"}))
    kept_response = client.get(URL, headers={"Authorization": f"Bearer {kept}"})
    assert kept_response.status_code == HTTPStatus.OK


def test_it_records_when_a_key_was_first_used(client, auth, key_row):
    assert key_row.last_used_at is None
    before = timezone.now()

    client.get(URL, headers=auth)

    key_row.refresh_from_db()
    assert key_row.last_used_at is not None
    assert before <= key_row.last_used_at <= timezone.now()


def test_it_does_not_rewrite_last_use_within_a_minute(client, auth, key_row):
    client.get(URL, headers=auth)
    key_row.refresh_from_db()
    first_use = key_row.last_used_at

    client.get(URL, headers=auth)
    client.get(URL, headers=auth)

    key_row.refresh_from_db()
    assert key_row.last_used_at == first_use


def test_it_rewrites_last_use_after_a_minute(client, auth, key_row):
    long_ago = timezone.now() - timedelta(minutes=1, seconds=1)
    ApiKey.objects.filter(pk=key_row.pk).update(last_used_at=long_ago)

    client.get(URL, headers=auth)

    key_row.refresh_from_db()
    assert key_row.last_used_at is not None
    assert key_row.last_used_at > long_ago + timedelta(minutes=1)


def test_a_refused_key_is_not_recorded_as_used(client, auth, key_row):
    apikey_revoke(api_key=key_row)

    client.get(URL, headers=auth)

    key_row.refresh_from_db()
    assert key_row.last_used_at is None


def test_it_rejects_a_bad_key_even_on_a_wrong_method(client, db):
    # Authentication runs before the method check: a bad key learns nothing about the API.
    response = client.delete(URL, headers={"Authorization": "Bearer nope"})

    assert_unauthorized(response)


def test_the_request_log_names_the_key_by_its_prefix(client, api_key, caplog):
    with caplog.at_level(logging.INFO, logger="petstore.requests"):
        client.get("/v1/pets", headers={"Authorization": f"Bearer {api_key}"})

    (line,) = [json.loads(r.getMessage()) for r in caplog.records if r.name == "petstore.requests"]
    assert line["key_prefix"] == keys.display_prefix(api_key)
