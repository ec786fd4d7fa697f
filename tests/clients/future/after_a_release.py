"""No stale shape after a deploy: a tag and an idempotent POST's answer, served by today's
release, met again by a later one whose Pet has a field more (this app's settings). Run only
under those settings, by tests/petstore/test_no_stale_shape.py."""

from __future__ import annotations

import json
from http import HTTPStatus

import httpx
import pytest

from pets.models import Pet
from tests.clients.future.settings import ADDED_FIELD
from tests.reliability.conftest import Instance, start_instance

pytestmark = pytest.mark.django_db(transaction=True)

TODAY = "petstore.settings"


def stop(instance: Instance) -> None:
    instance.process.terminate()
    instance.process.wait(timeout=15)


def test_a_release_that_adds_a_field_serves_no_old_tag_and_replays_no_old_answer(make_key, dog):
    auth = {"Authorization": f"Bearer {make_key()}"}
    body = json.dumps({"name": "Rex", "categoryId": dog.pk})
    posting = {**auth, "Content-Type": "application/json", "Idempotency-Key": "add-rex"}
    today = start_instance(settings_module=TODAY)
    try:
        created = httpx.post(f"{today.url}/v1/pets", content=body, headers=posting)
        listed = httpx.get(f"{today.url}/v1/pets", headers=auth)
        tag = listed.headers["ETag"]
        unchanged = httpx.get(f"{today.url}/v1/pets", headers={**auth, "If-None-Match": tag})
    finally:
        stop(today)
    assert created.status_code == HTTPStatus.CREATED
    assert ADDED_FIELD not in listed.json()[0]
    assert unchanged.status_code == HTTPStatus.NOT_MODIFIED  # the tag is recorded, and holds

    later = start_instance()  # the next release: the same data, Pet with a field more
    try:
        relisted = httpx.get(f"{later.url}/v1/pets", headers={**auth, "If-None-Match": tag})
        replayed = httpx.post(f"{later.url}/v1/pets", content=body, headers=posting)
    finally:
        stop(later)
    assert relisted.status_code == HTTPStatus.OK
    assert ADDED_FIELD in relisted.json()[0]
    assert relisted.headers["ETag"] != tag
    assert replayed.status_code == HTTPStatus.CONFLICT
    error = replayed.json()
    assert error["code"] == "conflict"
    assert (
        f"answered (201 at {created.headers['Location']}) by an earlier release" in error["message"]
    )
    assert "Idempotent-Replayed" not in replayed.headers
    assert Pet.objects.count() == 1
