"""Where a webhook may be sent: to public addresses only, so that an endpoint cannot make our
workers reach the service's own network (SSRF). A host is resolved and every address it has is
checked, at registration and again at each delivery, which then connects to an address it
checked, never to a name resolved anew."""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from typing import NamedTuple
from urllib.parse import urlsplit

from django.conf import settings

from webhooks.address_ranges import IPAddress, refused_range

# The port of a URL that names none, by its scheme.
DEFAULT_PORTS = {"http": 80, "https": 443}


class Refused(Exception):
    """A URL a webhook may not be sent to; the message says why."""


class Target(NamedTuple):
    scheme: str
    host: str  # as the URL names it: for Host and TLS
    port: int
    path: str  # with its query
    address: str  # the checked address to connect to


def target(url: str) -> Target:
    """Where ``url`` posts to, resolved and checked."""
    parts = urlsplit(url)
    allow_private = settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE
    schemes = ("https", "http") if allow_private else ("https",)
    if parts.scheme not in schemes:
        raise Refused(f"The URL must start with {' or '.join(s + '://' for s in schemes)}.")
    if not parts.hostname:
        raise Refused("The URL has no host.")
    if parts.username or parts.password:
        raise Refused("The URL may not carry a user name or password.")
    try:
        port = parts.port or DEFAULT_PORTS[parts.scheme]
    except ValueError:
        raise Refused("The URL's port is not a number from 1 to 65535.") from None
    addresses = resolve(parts.hostname, port)
    if not allow_private:
        for address in addresses:
            if why := refused_range(address):
                raise Refused(
                    f"{shown(parts.hostname)} is not a public address ({address}: {why})."
                )
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, parts.hostname, port, path, str(addresses[0]))


def resolve(host: str, port: int) -> list[IPAddress]:
    # An address written out is its own answer: no lookup (a worker's goes through a thread).
    # Other spellings of one ("2130706433", "127.1") are left to getaddrinfo, which reads them.
    with contextlib.suppress(ValueError):
        return [ipaddress.ip_address(host)]
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise Refused(f"{shown(host)} cannot be resolved.") from None
    addresses = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in found]
    if not addresses:
        raise Refused(f"{shown(host)} cannot be resolved.")
    return addresses


def shown(host: str) -> str:
    # A URL may name a host of any length: a message stays short enough to be stored with the
    # delivery it refused.
    return host if len(host) <= 100 else host[:99] + "…"


def is_public(address: IPAddress) -> bool:
    """Outside every range of ``webhooks.address_ranges``; an IPv6 address that carries an
    IPv4 address is judged by that too, since a translator or relay would forward to it:
    ``64:ff9b::7f00:1`` reaches 127.0.0.1."""
    return refused_range(address) is None
