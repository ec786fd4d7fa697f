"""Requests without a valid key are limited per client address."""

from __future__ import annotations

from http import HTTPStatus

import pytest

from tests.assertions import assert_error


@pytest.fixture(autouse=True)
def _small_rate_on_a_still_clock(settings, clock):
    settings.PETSTORE_ANONYMOUS_RATE = "3/m"


def anonymous(client, **headers):
    return client.get("/v1/pets", headers=headers)


def test_an_address_gets_its_own_small_quota(client, db):
    statuses = [anonymous(client).status_code for _ in range(3)]
    refused = anonymous(client)

    assert statuses == [HTTPStatus.UNAUTHORIZED] * 3
    assert_error(refused, HTTPStatus.TOO_MANY_REQUESTS, "rate_limited")
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert refused["X-RateLimit-Remaining"] == "0"


def test_bad_keys_count_against_the_address(client, db):
    for _ in range(3):
        anonymous(client, Authorization="Bearer petstore_live_made_up")

    assert anonymous(client).status_code == HTTPStatus.TOO_MANY_REQUESTS


def test_a_valid_key_is_not_limited_by_its_address(client, auth, db):
    for _ in range(3):
        anonymous(client)

    assert client.get("/v1/pets", headers=auth).status_code == HTTPStatus.OK


def test_x_forwarded_for_is_ignored_without_trusted_proxies(client, db):
    for hop in ("1.1.1.1", "2.2.2.2", "3.3.3.3"):
        anonymous(client, X_Forwarded_For=hop)

    assert anonymous(client, X_Forwarded_For="4.4.4.4").status_code == (
        HTTPStatus.TOO_MANY_REQUESTS
    )


def test_x_forwarded_for_names_the_client_behind_trusted_proxies(client, settings, db):
    settings.PETSTORE_TRUSTED_PROXIES = 1
    for _ in range(3):
        anonymous(client, X_Forwarded_For="9.9.9.9, 1.1.1.1")

    # The proxy appended the address it saw: the last hop. A client cannot forge it.
    assert anonymous(client, X_Forwarded_For="1.1.1.1").status_code == (
        HTTPStatus.TOO_MANY_REQUESTS
    )
    assert anonymous(client, X_Forwarded_For="1.1.1.1, 2.2.2.2").status_code == (
        HTTPStatus.UNAUTHORIZED
    )
