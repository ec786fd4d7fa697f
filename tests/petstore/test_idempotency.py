"""POST with an Idempotency-Key: replayed, refused when reused, kept 24 hours, purged."""

from __future__ import annotations

import json
from datetime import timedelta
from http import HTTPStatus
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from pets.models import Pet
from petstore.models import IdempotencyRecord
from tests.assertions import assert_error, assert_validation_error


def create(client, auth, body, key="key-1"):
    return client.post(
        "/v1/pets",
        json.dumps(body),
        content_type="application/json",
        headers={**auth, "Idempotency-Key": key},
    )


def test_a_retry_replays_the_first_answer_and_creates_nothing(client, auth, dog):
    first = create(client, auth, {"name": "Rex", "categoryId": dog.pk})

    again = create(client, auth, {"categoryId": dog.pk, "name": "Rex"})  # same body, reordered

    assert first.status_code == again.status_code == HTTPStatus.CREATED
    assert again.json() == first.json()
    assert again["Location"] == first["Location"]
    assert again["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first
    assert Pet.objects.count() == 1


def test_the_same_key_with_another_body_is_refused(client, auth, dog):
    create(client, auth, {"name": "Rex", "categoryId": dog.pk})

    response = create(client, auth, {"name": "Max", "categoryId": dog.pk})

    assert_error(response, HTTPStatus.UNPROCESSABLE_ENTITY, "idempotency_key_reused")
    assert list(Pet.objects.values_list("name", flat=True)) == ["Rex"]


def test_keys_belong_to_one_account(client, auth, make_key, dog):
    other = {"Authorization": f"Bearer {make_key(name='Other')}"}
    create(client, auth, {"name": "Rex", "categoryId": dog.pk})

    response = create(client, other, {"name": "Rex", "categoryId": dog.pk})

    assert response.status_code == HTTPStatus.CREATED
    assert "Idempotent-Replayed" not in response
    assert Pet.objects.count() == 2


def test_a_validation_error_is_replayed_too(client, auth, dog):
    first = create(client, auth, {"name": "", "categoryId": dog.pk})

    again = create(client, auth, {"name": "", "categoryId": dog.pk})

    assert_validation_error(first, "name")
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"


def test_after_24_hours_the_key_starts_afresh(client, auth, dog):
    create(client, auth, {"name": "Rex", "categoryId": dog.pk})
    IdempotencyRecord.objects.update(created_at=timezone.now() - timedelta(hours=24, seconds=1))

    response = create(client, auth, {"name": "Max", "categoryId": dog.pk})

    assert response.status_code == HTTPStatus.CREATED
    assert "Idempotent-Replayed" not in response
    assert Pet.objects.count() == 2


def test_a_request_still_in_flight_gets_409(client, auth, key_row, dog):
    IdempotencyRecord.objects.create(
        account=key_row.account,
        key="key-1",
        fingerprint="in flight",
        status_code=None,
    )
    body = {"name": "Rex", "categoryId": dog.pk}
    # Same fingerprint as the in-flight claim:
    IdempotencyRecord.objects.update(fingerprint=_fingerprint_of(body))

    response = create(client, auth, body)

    assert_error(response, HTTPStatus.CONFLICT, "conflict")
    assert not Pet.objects.exists()


def _fingerprint_of(body):
    import hashlib

    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(f"POST /v1/pets\n{canonical}".encode()).hexdigest()


@pytest.mark.parametrize("key", ["", "k" * 256])
def test_a_key_must_be_1_to_255_characters(client, auth, dog, key):
    response = create(client, auth, {"name": "Rex", "categoryId": dog.pk}, key=key)

    assert_validation_error(response, "Idempotency-Key")
    assert not Pet.objects.exists()


def test_the_purge_command_deletes_only_expired_records(client, auth, dog):
    create(client, auth, {"name": "Rex", "categoryId": dog.pk}, key="old")
    create(client, auth, {"name": "Max", "categoryId": dog.pk}, key="new")
    IdempotencyRecord.objects.filter(key="old").update(
        created_at=timezone.now() - timedelta(days=2)
    )
    out = StringIO()

    call_command("purge_idempotency_keys", stdout=out)

    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["new"]
    assert "Purged 1" in out.getvalue()
