"""The addresses no webhook is sent to, written out from IANA's IPv4 and IPv6 Special-Purpose
Address Registries and the address spaces' own registries, rather than read from
``ipaddress``'s ``is_global``, whose ranges differ from one Python release to the next (3.11's
passes ``fec0::/10`` and ``::ffff:0:0:0/96``)."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from typing import NamedTuple

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


class Range(NamedTuple):
    network: IPNetwork
    name: str  # as its registry names it, with the RFC


def _ranges(*rows: tuple[str, str]) -> tuple[Range, ...]:
    return tuple(Range(ipaddress.ip_network(block), name) for block, name in rows)


# Every block the registries mark not globally reachable (or "N/A"), and the blocks outside
# them that no public receiver has.
NOT_GLOBAL = _ranges(
    ("0.0.0.0/8", '"This network", RFC 791'),
    ("0.0.0.0/32", '"This host on this network", RFC 1122'),
    ("10.0.0.0/8", "Private-Use, RFC 1918"),
    ("100.64.0.0/10", "Shared Address Space, RFC 6598"),
    ("127.0.0.0/8", "Loopback, RFC 1122"),
    ("169.254.0.0/16", "Link Local, RFC 3927"),
    ("172.16.0.0/12", "Private-Use, RFC 1918"),
    ("192.0.0.0/24", "IETF Protocol Assignments, RFC 6890"),
    ("192.0.0.0/29", "IPv4 Service Continuity Prefix, RFC 7335"),
    ("192.0.0.8/32", "IPv4 dummy address, RFC 7600"),
    ("192.0.0.170/32", "NAT64/DNS64 Discovery, RFC 7050"),
    ("192.0.0.171/32", "NAT64/DNS64 Discovery, RFC 7050"),
    ("192.0.2.0/24", "Documentation (TEST-NET-1), RFC 5737"),
    ("192.88.99.0/24", "Deprecated (6to4 Relay Anycast), RFC 7526"),
    ("192.168.0.0/16", "Private-Use, RFC 1918"),
    ("198.18.0.0/15", "Benchmarking, RFC 2544"),
    ("198.51.100.0/24", "Documentation (TEST-NET-2), RFC 5737"),
    ("203.0.113.0/24", "Documentation (TEST-NET-3), RFC 5737"),
    ("224.0.0.0/4", "Multicast, RFC 5771"),  # the IPv4 Multicast Address Space registry
    ("240.0.0.0/4", "Reserved, RFC 1112"),
    ("255.255.255.255/32", "Limited Broadcast, RFC 919"),
    ("::1/128", "Loopback Address, RFC 4291"),
    ("::/128", "Unspecified Address, RFC 4291"),
    ("::/96", "IPv4-compatible, deprecated, RFC 4291"),  # the IPv6 Address Space registry
    ("64:ff9b:1::/48", "IPv4-IPv6 Translation, local use, RFC 8215"),
    ("100::/64", "Discard-Only Address Block, RFC 6666"),
    ("100:0:0:1::/64", "Dummy IPv6 Prefix, RFC 9780"),
    ("2001::/23", "IETF Protocol Assignments, RFC 2928"),
    ("2001::/32", "TEREDO, RFC 4380"),
    ("2001:2::/48", "Benchmarking, RFC 5180"),
    ("2001:10::/28", "Deprecated (previously ORCHID), RFC 4843"),
    ("2001:db8::/32", "Documentation, RFC 3849"),
    ("3fff::/20", "Documentation, RFC 9637"),
    ("5f00::/16", "Segment Routing (SRv6) SIDs, RFC 9602"),
    ("fc00::/7", "Unique-Local, RFC 4193"),
    ("fe80::/10", "Link-Local Unicast, RFC 4291"),
    ("fec0::/10", "Site-local, deprecated, RFC 3879"),  # the IPv6 Address Space registry
    ("ff00::/8", "Multicast, RFC 4291"),  # the IPv6 Address Space registry
)

# Blocks the registries mark globally reachable, refused all the same: each is an anycast
# address of a service (or an identifier no host answers at), reached at its nearest instance,
# which may be inside the network our workers send from.
ANYCAST = _ranges(
    ("192.0.0.9/32", "Port Control Protocol Anycast, RFC 7723"),
    ("192.0.0.10/32", "Traversal Using Relays around NAT Anycast, RFC 8155"),
    ("192.31.196.0/24", "AS112-v4, RFC 7535"),
    ("192.52.193.0/24", "AMT, RFC 7450"),
    ("192.175.48.0/24", "Direct Delegation AS112 Service, RFC 7534"),
    ("2001:1::1/128", "Port Control Protocol Anycast, RFC 7723"),
    ("2001:1::2/128", "Traversal Using Relays around NAT Anycast, RFC 8155"),
    ("2001:1::3/128", "DNS-SD Service Registration Protocol Anycast, RFC 9665"),
    ("2001:3::/32", "AMT, RFC 7450"),
    ("2001:4:112::/48", "AS112-v6, RFC 7535"),
    ("2001:20::/28", "ORCHIDv2, RFC 7343"),
    ("2001:30::/28", "Drone Remote ID Protocol Entity Tags (DETs) Prefix, RFC 9374"),
    ("2620:4f:8000::/48", "Direct Delegation AS112 Service, RFC 7534"),
)

REFUSED = NOT_GLOBAL + ANYCAST

# IANA gives out IPv6 unicast addresses from this block only (the IPv6 Address Space registry):
# any other outside the ranges above is reserved by the IETF.
GLOBAL_UNICAST = ipaddress.IPv6Network("2000::/3")


class Carrier(NamedTuple):
    """IPv6 addresses that carry an IPv4 address, which a translator, relay or dual-stack socket
    would reach: each is judged by the IPv4 address it carries."""

    network: ipaddress.IPv6Network
    name: str
    carried: Callable[[ipaddress.IPv6Address], ipaddress.IPv4Address]


def _last_32_bits(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address:
    return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)


def _sixtofour(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address:
    return ipaddress.IPv4Address((int(address) >> 80) & 0xFFFFFFFF)


CARRIERS = (
    Carrier(ipaddress.IPv6Network("::ffff:0:0/96"), "IPv4-mapped, RFC 4291", _last_32_bits),
    Carrier(ipaddress.IPv6Network("::ffff:0:0:0/96"), "IPv4-translated, RFC 2765", _last_32_bits),
    Carrier(
        ipaddress.IPv6Network("64:ff9b::/96"), "IPv4-IPv6 Translation, RFC 6052", _last_32_bits
    ),
    Carrier(ipaddress.IPv6Network("2002::/16"), "6to4, RFC 3056", _sixtofour),
)


def refused_range(address: IPAddress) -> str | None:
    """Why no webhook is sent to ``address``: the range it is in, as its registry names it; None
    for a public address."""
    if isinstance(address, ipaddress.IPv6Address):
        for carrier in CARRIERS:
            if address in carrier.network:
                carried = carrier.carried(address)
                why = refused_range(carried)
                return f"{carrier.name}, carrying {carried}: {why}" if why else None
    # The narrowest block that holds it: its name says most.
    holding = [refused for refused in REFUSED if address in refused.network]
    if holding:
        return max(holding, key=lambda refused: refused.network.prefixlen).name
    if isinstance(address, ipaddress.IPv6Address) and address not in GLOBAL_UNICAST:
        return "Reserved by IETF, RFC 4291"
    return None
