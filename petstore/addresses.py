"""Who is calling, as far as the network can tell: the client's address behind our proxies."""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """REMOTE_ADDR, or the X-Forwarded-For entry our own proxies vouch for
    (``PETSTORE_TRUSTED_PROXIES`` of them append to it)."""
    proxies = settings.PETSTORE_TRUSTED_PROXIES
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies > 0 and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if len(hops) >= proxies:
            return hops[-proxies]
    return str(request.META.get("REMOTE_ADDR", ""))


def client_subscriber(request: HttpRequest) -> str:
    """The subscriber the request comes from (``subscriber`` of its ``client_address``)."""
    return subscriber(client_address(request))


def subscriber(address: str) -> str:
    """The unit one subscriber holds: an IPv4 address, or an IPv6 /64 (a subscriber usually
    holds a whole /64, 2^64 addresses); anything unparsable as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip), 64), strict=False))
    return str(ip)
