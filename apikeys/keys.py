"""The API key format: generation, checksum, digest.

A key reads ``petstore_live_<27 base62 chars of 160 random bits><6 base62 chars of CRC-32>``
(``petstore_test_`` in staging). The checksum lets us refuse a mistyped or made-up key without
touching the database; the random part is what makes it secret. Only the SHA-256 digest and a
short display prefix are ever stored.

Publishable keys, made to be embedded in web pages, read ``petstore_pub_live_…`` (and
``petstore_pub_test_…``): the same randomness and checksum, and a prefix that says at a glance,
in a leak report or a code review, that this key is read-only and bound to web origins.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import zlib

from django.conf import settings

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
RANDOM_BYTES = 20  # 160 bits
BODY_LENGTH = 27  # ceil(160 / log2(62))
CHECKSUM_LENGTH = 6  # ceil(32 / log2(62))
DISPLAY_BODY_CHARS = 8

_KEY_RE = re.compile(
    rf"^petstore_(?P<pub>pub_)?(?P<env>live|test)_(?P<body>[0-9A-Za-z]{{{BODY_LENGTH}}})"
    rf"(?P<checksum>[0-9A-Za-z]{{{CHECKSUM_LENGTH}}})$"
)


def _base62(number: int, width: int) -> str:
    chars = []
    while number:
        number, digit = divmod(number, 62)
        chars.append(ALPHABET[digit])
    return "".join(reversed(chars)).rjust(width, "0")


def _checksum(prefix_and_body: str) -> str:
    return _base62(zlib.crc32(prefix_and_body.encode("ascii")), CHECKSUM_LENGTH)


def key_prefix(*, publishable: bool = False) -> str:
    environment = "test" if settings.PETSTORE_ENVIRONMENT == "staging" else "live"
    return f"petstore_{'pub_' if publishable else ''}{environment}_"


def generate_key(*, publishable: bool = False) -> str:
    body = _base62(int.from_bytes(secrets.token_bytes(RANDOM_BYTES), "big"), BODY_LENGTH)
    head = key_prefix(publishable=publishable) + body
    return head + _checksum(head)


def is_publishable(raw: str) -> bool:
    """Whether ``raw`` has the publishable form (it may still be malformed otherwise)."""
    return raw.startswith("petstore_pub_")


def is_well_formed(raw: str) -> bool:
    """True when ``raw`` has this environment's prefix, the right length and a valid checksum."""
    match = _KEY_RE.match(raw)
    if match is None or not raw.startswith(key_prefix(publishable=bool(match["pub"]))):
        return False
    return secrets.compare_digest(_checksum(raw[:-CHECKSUM_LENGTH]), match["checksum"])


def digest(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def display_prefix(raw: str) -> str:
    """The part of a key that may be shown in lists and logs to tell keys apart."""
    return raw[: len(key_prefix(publishable=is_publishable(raw))) + DISPLAY_BODY_CHARS]
