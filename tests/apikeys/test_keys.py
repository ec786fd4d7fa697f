"""The key format: prefix, randomness, checksum; and what is stored of it."""

from __future__ import annotations

import hashlib
import math
import re

import pytest

from apikeys import keys
from apikeys.models import ApiKey
from apikeys.services import apikey_issue

LIVE_KEY = re.compile(r"^petstore_live_(?P<body>[0-9A-Za-z]+)$")


def test_it_prefixes_keys_with_petstore_live_in_production():
    raw = keys.generate_key()

    assert raw.startswith("petstore_live_")
    assert LIVE_KEY.match(raw)


def test_it_prefixes_keys_with_petstore_test_in_staging(settings):
    settings.PETSTORE_ENVIRONMENT = "staging"

    raw = keys.generate_key()

    assert raw.startswith("petstore_test_")
    assert keys.is_well_formed(raw)


def test_it_does_not_accept_a_key_from_the_other_environment(settings):
    live = keys.generate_key()
    settings.PETSTORE_ENVIRONMENT = "staging"
    staging = keys.generate_key()

    assert not keys.is_well_formed(live)
    settings.PETSTORE_ENVIRONMENT = "production"
    assert not keys.is_well_formed(staging)
    assert keys.is_well_formed(live)


def test_it_carries_at_least_160_random_bits():
    raw = keys.generate_key()
    match = LIVE_KEY.match(raw)
    assert match is not None
    random_part = match["body"][: -keys.CHECKSUM_LENGTH]

    assert set(match["body"]) <= set(keys.ALPHABET)
    assert len(keys.ALPHABET) == 62
    assert len(random_part) * math.log2(62) >= 160


def test_it_uses_the_whole_alphabet_in_every_position():
    # With 160 random bits no position is fixed; over many keys every position varies.
    bodies = [keys.generate_key().removeprefix("petstore_live_") for _ in range(200)]

    for position in range(1, len(bodies[0]) - keys.CHECKSUM_LENGTH):
        assert len({body[position] for body in bodies}) > 20, position
    assert len({body[0] for body in bodies}) > 1


def test_it_never_generates_the_same_key_twice():
    generated = {keys.generate_key() for _ in range(1000)}

    assert len(generated) == 1000


def test_a_generated_key_passes_its_checksum():
    for _ in range(100):
        assert keys.is_well_formed(keys.generate_key())


@pytest.mark.parametrize("position", [-1, -3, -6, -7, len("petstore_live_"), 20])
def test_a_single_changed_character_fails_the_checksum(position):
    raw = keys.generate_key()
    original = raw[position]
    changed = raw[:position] + ("A" if original != "A" else "B") + raw[position:][1:]

    assert len(changed) == len(raw)
    assert not keys.is_well_formed(changed)


@pytest.mark.parametrize(
    "candidate",
    ["", "petstore_live_", "petstore_live_" + "0" * 33, "PETSTORE_LIVE_" + "0" * 33, "x" * 47],
)
def test_it_refuses_strings_that_are_not_keys(candidate):
    assert not keys.is_well_formed(candidate)


@pytest.mark.django_db
def test_it_stores_only_the_digest_and_a_display_prefix(make_account):
    issued = apikey_issue(account=make_account())
    raw = issued.raw
    secret_part = raw.removeprefix("petstore_live_")

    row = ApiKey.objects.filter(pk=issued.api_key.pk).values().get()

    assert row["digest"] == hashlib.sha256(raw.encode()).hexdigest()
    assert row["prefix"] == keys.display_prefix(raw)
    assert raw.startswith(row["prefix"])
    assert len(row["prefix"]) < len("petstore_live_") + 12
    for value in row.values():
        assert raw not in str(value)
        assert secret_part not in str(value)
        # Not even most of the secret: the prefix shows a few characters, no more.
        assert secret_part[8:20] not in str(value)


@pytest.mark.django_db
def test_it_finds_a_key_by_its_raw_value_only(make_account):
    issued = apikey_issue(account=make_account())

    assert ApiKey.objects.for_digest(keys.digest(issued.raw)) == issued.api_key
    assert ApiKey.objects.for_digest(keys.digest(keys.generate_key())) is None
    assert ApiKey.objects.for_digest(keys.digest(issued.api_key.digest)) is None
