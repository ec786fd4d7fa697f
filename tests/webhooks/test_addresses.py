"""The address rule, one address in every range of IANA's IPv4 and IPv6 special-purpose
registries (and the address spaces' multicast, site-local and reserved blocks): each refused on
create, on update and at delivery, where the host is resolved anew. IPv6 addresses that carry an
IPv4 address (IPv4-mapped and -translated, NAT64, 6to4) are judged by the one they carry."""

from __future__ import annotations

import ipaddress
import json
import socket
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import pytest
from django.utils import timezone

from events.models import Event
from tests.assertions import assert_validation_error
from webhooks import address_ranges, services, tasks
from webhooks.addresses import is_public
from webhooks.models import AttemptError, Delivery, Endpoint

HOST = "hooks.example.com"


@dataclass(frozen=True)
class Case:
    address: str
    block: str  # the range it stands for


REFUSED = [
    # IPv4 Special-Purpose Address Registry, not globally reachable
    Case(address="0.1.2.3", block="0.0.0.0/8"),
    Case(address="0.0.0.0", block="0.0.0.0/32"),  # noqa: S104 (an address refused, not bound)
    Case(address="10.1.2.3", block="10.0.0.0/8"),
    Case(address="100.64.0.1", block="100.64.0.0/10"),
    Case(address="127.0.0.1", block="127.0.0.0/8"),
    Case(address="169.254.169.254", block="169.254.0.0/16"),
    Case(address="172.16.0.1", block="172.16.0.0/12"),
    Case(address="192.0.0.200", block="192.0.0.0/24"),
    Case(address="192.0.0.1", block="192.0.0.0/29"),
    Case(address="192.0.0.8", block="192.0.0.8/32"),
    Case(address="192.0.0.170", block="192.0.0.170/32"),
    Case(address="192.0.0.171", block="192.0.0.171/32"),
    Case(address="192.0.2.1", block="192.0.2.0/24"),
    Case(address="192.88.99.1", block="192.88.99.0/24"),
    Case(address="192.168.0.10", block="192.168.0.0/16"),
    Case(address="198.18.0.1", block="198.18.0.0/15"),
    Case(address="198.51.100.1", block="198.51.100.0/24"),
    Case(address="203.0.113.1", block="203.0.113.0/24"),
    Case(address="224.0.0.1", block="224.0.0.0/4"),
    Case(address="240.0.0.1", block="240.0.0.0/4"),
    Case(address="255.255.255.255", block="255.255.255.255/32"),
    # globally reachable in the registry, but anycast
    Case(address="192.0.0.9", block="192.0.0.9/32"),
    Case(address="192.0.0.10", block="192.0.0.10/32"),
    Case(address="192.31.196.1", block="192.31.196.0/24"),
    Case(address="192.52.193.1", block="192.52.193.0/24"),
    Case(address="192.175.48.1", block="192.175.48.0/24"),
    # IPv6 Special-Purpose Address Registry, and the IPv6 Address Space's
    Case(address="::1", block="::1/128"),
    Case(address="::", block="::/128"),
    Case(address="::808:808", block="::/96"),
    Case(address="64:ff9b:1::808:808", block="64:ff9b:1::/48"),
    Case(address="100::1", block="100::/64"),
    Case(address="100:0:0:1::1", block="100:0:0:1::/64"),
    Case(address="2001:1f::1", block="2001::/23"),
    Case(address="2001:0:808:808::1", block="2001::/32"),
    Case(address="2001:2::1", block="2001:2::/48"),
    Case(address="2001:10::1", block="2001:10::/28"),
    Case(address="2001:db8::1", block="2001:db8::/32"),
    Case(address="3fff::1", block="3fff::/20"),
    Case(address="5f00::1", block="5f00::/16"),
    Case(address="fd00::1", block="fc00::/7"),
    Case(address="fe80::1", block="fe80::/10"),
    Case(address="fec0::1", block="fec0::/10"),
    Case(address="ff02::1", block="ff00::/8"),
    Case(address="4000::1", block="4000::/3"),  # outside 2000::/3: reserved by the IETF
    # globally reachable in the registry, but anycast or no host's
    Case(address="2001:1::1", block="2001:1::1/128"),
    Case(address="2001:1::2", block="2001:1::2/128"),
    Case(address="2001:1::3", block="2001:1::3/128"),
    Case(address="2001:3::1", block="2001:3::/32"),
    Case(address="2001:4:112::1", block="2001:4:112::/48"),
    Case(address="2001:20::1", block="2001:20::/28"),
    Case(address="2001:30::1", block="2001:30::/28"),
    Case(address="2620:4f:8000::1", block="2620:4f:8000::/48"),
    # carrying a private IPv4 address
    Case(address="::ffff:a9fe:a9fe", block="::ffff:0:0/96"),  # 169.254.169.254
    Case(address="::ffff:0:7f00:1", block="::ffff:0:0:0/96"),  # 127.0.0.1
    Case(address="64:ff9b::a00:1", block="64:ff9b::/96"),  # 10.0.0.1
    Case(address="2002:7f00:1::1", block="2002::/16"),  # 127.0.0.1
]
PUBLIC = [
    "8.8.8.8",
    "93.184.215.14",
    "2606:4700:4700::1111",
    "::ffff:808:808",  # IPv4-mapped 8.8.8.8
    "::ffff:0:808:808",  # IPv4-translated 8.8.8.8
    "64:ff9b::808:808",  # NAT64 of 8.8.8.8
    "2002:808:808::1",  # 6to4 of 8.8.8.8
]


def url_of(address: str) -> str:
    host = f"[{address}]" if ":" in address else address
    return f"https://{host}/hooks"


def by_address(cases: list[Case]) -> list[Any]:
    return [pytest.param(case, id=case.address) for case in cases]


@pytest.fixture(autouse=True)
def _public_addresses_only(settings: Any) -> None:
    """Production's rule."""
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = False


@pytest.fixture
def resolves_to(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """What ``HOST`` resolves to, as the test sets it: these machines have no DNS."""
    answer = {"address": "93.184.215.14"}
    real = socket.getaddrinfo

    def getaddrinfo(host: str, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host != HOST:
            return real(host, port, *args, **kwargs)
        address = answer["address"]
        if ":" in address:
            return [(socket.AF_INET6, socket.SOCK_STREAM, 6, "", (address, port, 0, 0))]
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return answer


def send(client: Any, method: str, path: str, key: str, body: object) -> Any:
    return client.generic(
        method,
        path,
        json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )


def test_every_case_stands_for_its_range_and_every_range_has_one() -> None:
    for case in REFUSED:
        assert ipaddress.ip_address(case.address) in ipaddress.ip_network(case.block), case
    tabled = [str(r.network) for r in address_ranges.REFUSED]
    tabled += [str(c.network) for c in address_ranges.CARRIERS]
    assert set(tabled) <= {case.block for case in REFUSED}


@pytest.mark.parametrize("case", by_address(REFUSED))
def test_an_address_in_the_range_is_not_public(case: Case) -> None:
    assert not is_public(ipaddress.ip_address(case.address))


@pytest.mark.parametrize("address", PUBLIC)
def test_a_public_address_is_public(client: Any, api_key: str, address: str) -> None:
    assert is_public(ipaddress.ip_address(address))
    body = {"url": url_of(address), "events": ["pet.created"]}
    made = send(client, "POST", "/v1/webhook_endpoints", api_key, body)
    assert made.status_code == HTTPStatus.CREATED, made.content


@pytest.mark.parametrize("case", by_address(REFUSED))
def test_it_is_refused_on_create(client: Any, api_key: str, case: Case) -> None:
    body = {"url": url_of(case.address), "events": ["pet.created"]}

    refused = send(client, "POST", "/v1/webhook_endpoints", api_key, body)

    (message,) = assert_validation_error(refused, "url")["url"]
    assert "is not a public address" in message
    assert not Endpoint.objects.exists()


@pytest.mark.parametrize("case", by_address(REFUSED))
def test_it_is_refused_on_update(
    client: Any, api_key: str, resolves_to: dict[str, str], case: Case
) -> None:
    made = send(
        client,
        "POST",
        "/v1/webhook_endpoints",
        api_key,
        {"url": f"https://{HOST}/hooks", "events": ["pet.created"]},
    )
    assert made.status_code == HTTPStatus.CREATED, made.content
    path = f"/v1/webhook_endpoints/{made.json()['id']}"

    refused = send(client, "PATCH", path, api_key, {"url": url_of(case.address)})

    (message,) = assert_validation_error(refused, "url")["url"]
    assert "is not a public address" in message
    assert Endpoint.objects.get().url == f"https://{HOST}/hooks"


@pytest.mark.parametrize("case", by_address(REFUSED))
def test_a_host_resolved_into_the_range_is_refused_at_delivery(
    make_account: Any, resolves_to: dict[str, str], case: Case
) -> None:
    endpoint = services.endpoint_create(
        account_id=make_account().pk, url=f"https://{HOST}/hooks", events=["pet.created"]
    )
    event = Event.objects.create(type="pet.created", data={}, created_at=timezone.now())
    Delivery.objects.create(endpoint=endpoint, event=event, next_attempt_at=timezone.now())
    resolves_to["address"] = case.address  # its name now points into the range

    (run,) = services.lease_due()
    tasks.deliver(run)

    delivery = Delivery.objects.get()
    assert delivery.last_error_kind == AttemptError.ADDRESS
    assert f"is not a public address ({ipaddress.ip_address(case.address)}" in delivery.last_error
    assert delivery.last_status is None
