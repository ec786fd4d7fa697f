"""IPv6 addresses that carry an IPv4 address (NAT64, 6to4, Teredo, the IPv4-mapped and
-compatible forms) are judged by the IPv4 address they carry: a translator or relay would
forward to it, so one carrying 127.0.0.1 reaches our own loopback."""

from __future__ import annotations

import ipaddress
import json
from typing import Any

import pytest

from tests.assertions import assert_validation_error
from webhooks.addresses import Refused, is_public, target
from webhooks.models import Endpoint

# One URL a family, each carrying a private IPv4 address.
PRIVATE_EMBEDDED = [
    pytest.param("https://[64:ff9b::7f00:1]/hook", id="nat64"),  # 127.0.0.1
    pytest.param("https://[64:ff9b:1::a00:1]/hook", id="nat64-local-use"),  # 10.0.0.1
    pytest.param("https://[::ffff:a9fe:a9fe]/hook", id="ipv4-mapped"),  # 169.254.169.254
    pytest.param("https://[2002:7f00:1::1]/hook", id="6to4"),  # 127.0.0.1
    # Server 8.8.8.8, client 127.0.0.1 stored bit-inverted as Teredo does.
    pytest.param("https://[2001:0:808:808::80ff:fffe]/hook", id="teredo"),
    pytest.param("https://[::7f00:1]/hook", id="ipv4-compatible"),  # 127.0.0.1
]


@pytest.fixture(autouse=True)
def _public_addresses_only(settings: Any) -> None:
    """Production's rule."""
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = False


@pytest.mark.parametrize("url", PRIVATE_EMBEDDED)
def test_an_endpoint_to_an_embedded_private_address_is_refused(
    client: Any, api_key: str, url: str
) -> None:
    response = client.post(
        "/v1/webhook_endpoints",
        json.dumps({"url": url, "events": ["pet.created"]}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {api_key}"},
    )

    errors = assert_validation_error(response, "url")
    assert "is not a public address" in errors["url"][0]
    assert not Endpoint.objects.exists()


@pytest.mark.parametrize("url", PRIVATE_EMBEDDED)
def test_a_delivery_to_an_embedded_private_address_is_refused(url: str) -> None:
    # Delivery calls target() before each attempt, so a host that later resolves to such an
    # address is refused before any connection.
    with pytest.raises(Refused, match="is not a public address"):
        target(url)


def test_an_embedded_public_address_is_public() -> None:
    assert is_public(ipaddress.IPv6Address("64:ff9b::808:808"))  # 8.8.8.8
    assert is_public(ipaddress.IPv6Address("::ffff:808:808"))


@pytest.mark.parametrize(
    "address",
    [
        "64:ff9b::a00:1",  # 10.0.0.1
        "64:ff9b::c0a8:1",  # 192.168.0.1
        "64:ff9b::a9fe:a9fe",  # 169.254.169.254
        "64:ff9b:1::808:808",  # local-use prefix, whatever it carries
        "2002:a00:1::1",  # 6to4 of 10.0.0.1
        "2001:0:7f00:1::f7f7:f7f7",  # Teredo: server 127.0.0.1, client 8.8.8.8
        "::808:808",  # IPv4-compatible, deprecated
    ],
)
def test_an_embedded_private_address_is_not_public(address: str) -> None:
    assert not is_public(ipaddress.IPv6Address(address))
