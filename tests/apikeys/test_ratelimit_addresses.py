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


def from_address(client, address: str):
    return client.get("/v1/pets", REMOTE_ADDR=address)


def test_an_ipv6_slash_64_shares_one_quota(client, db):
    for host in ("2001:db8:1:2::1", "2001:db8:1:2::ffff", "2001:db8:1:2:abcd:ef01:2345:6789"):
        assert from_address(client, host).status_code == HTTPStatus.UNAUTHORIZED

    refused = from_address(client, "2001:db8:1:2:ffff:ffff:ffff:ffff")

    assert_error(refused, HTTPStatus.TOO_MANY_REQUESTS, "rate_limited")
    # The neighbouring /64 is another subscriber, with a quota of its own.
    assert from_address(client, "2001:db8:1:3::1").status_code == HTTPStatus.UNAUTHORIZED


def test_ipv4_addresses_are_counted_one_by_one(client, db):
    for _ in range(3):
        from_address(client, "198.51.100.7")

    assert from_address(client, "198.51.100.7").status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert from_address(client, "198.51.100.8").status_code == HTTPStatus.UNAUTHORIZED


def test_an_ipv4_mapped_ipv6_address_counts_as_its_ipv4_address(client, db):
    for _ in range(3):
        from_address(client, "::ffff:198.51.100.9")

    assert from_address(client, "198.51.100.9").status_code == HTTPStatus.TOO_MANY_REQUESTS


def test_the_ipv6_rule_holds_while_redis_is_down(client, db, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    settings.REDIS_TIMEOUT_SECONDS = 0.2
    for host in ("2001:db8:9::1", "2001:db8:9::2", "2001:db8:9::3"):
        from_address(client, host)

    assert from_address(client, "2001:db8:9::4").status_code == HTTPStatus.TOO_MANY_REQUESTS
