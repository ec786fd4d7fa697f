"""The SDKs as released against a server with every addition of this app's settings: their
compatibility suites pass, and the document marks the field added after the release. Run only
under those settings, by tests/clients/test_released_sdks.py, which built the SDKs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.db import transaction

from apikeys.windows import WINDOWS
from events.services import event_record
from events.types import EventType
from pets.models import Pet
from pets.selectors import PET
from pets.services import pet_create
from tests.clients.future.settings import ADDED_CODE, ADDED_FIELD, ADDED_TYPE
from tests.clients.released import Released, made_for, run_suites
from tests.reliability.conftest import start_instance

pytestmark = pytest.mark.django_db(transaction=True)

ADDED = {
    "windows": [window.name for window in WINDOWS],
    "eventTypes": ["pet.created", ADDED_TYPE],
    "petFields": ["breed", ADDED_FIELD],
    "usageFields": ["perQuarterHour"],
    "conflictCode": ADDED_CODE,
}


@pytest.fixture
def released() -> Released:
    where = os.environ.get("PETSTORE_RELEASED_SDKS")
    if not where:
        pytest.fail("PETSTORE_RELEASED_SDKS is not set: run tests/clients/test_released_sdks.py.")
    return Released(Path(where))


def test_the_released_sdks_pass_their_suites(released, make_key, dog, tmp_path):
    assert "quarter_hour" in ADDED["windows"]
    with transaction.atomic():
        # As a server without the field stored it, before the field was added.
        before = Pet.objects.create(name="Stored before", category=dog)
        shown = {name: value for name, value in PET.of(before).items() if name != ADDED_FIELD}
        event_record(EventType.PET_CREATED, shown)
        event_record(ADDED_TYPE, PET.of(before))
    pet_create(name="Stored since", category_id=dog.pk)
    made = {sdk: made_for(sdk, make_key, dog) for sdk in ("python", "typescript")}
    instance = start_instance()
    try:
        failed = run_suites(released, tmp_path / "fixtures.json", f"{instance.url}/v1", ADDED, made)
    finally:
        instance.process.terminate()
        instance.process.wait(timeout=15)

    assert failed == {}, "\n\n".join(f"{name}:\n{output}" for name, output in failed.items())


def test_the_document_marks_the_field_added_after_the_release(client, settings):
    schemas = client.get("/v1/openapi.json").json()["components"]["schemas"]

    # Added after every release: marked with the latest, the version being served.
    latest = settings.PETSTORE_API_VERSION
    assert schemas["Pet"]["properties"][ADDED_FIELD]["x-added-after"] == latest
    assert schemas["Pet"]["properties"]["breed"]["x-added-after"] == "1.0.0"
    assert ADDED_FIELD in schemas["Pet"]["required"]
    assert "x-added-after" not in schemas["Pet"]["properties"]["name"]
