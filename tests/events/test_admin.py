"""An event's page in the admin shows its data formatted, escaped, and nothing to change."""

from __future__ import annotations

import html
import re
from http import HTTPStatus

import pytest
from django.db import transaction

from events.models import Event
from events.services import event_record
from events.types import EventType

pytestmark = pytest.mark.django_db


def recorded(data: dict) -> Event:
    with transaction.atomic():
        return event_record(EventType.PET_CREATED, data)


def test_an_events_data_is_shown_indented_and_escaped(admin_client):
    event = recorded({"id": 7, "name": "<b>Rex</b> & Ada", "category": {"id": 1, "name": "Dog"}})

    page = admin_client.get(f"/admin/events/event/{event.pk}/change/").content.decode()

    shown = re.search(r'<pre class="event-data">(.*?)</pre>', page, re.DOTALL)
    assert shown is not None
    assert html.unescape(shown[1]) == (
        "{\n"
        '  "id": 7,\n'
        '  "name": "<b>Rex</b> & Ada",\n'
        '  "category": {\n'
        '    "id": 1,\n'
        '    "name": "Dog"\n'
        "  }\n"
        "}"
    )
    assert "&lt;b&gt;Rex&lt;/b&gt; &amp; Ada" in shown[1]
    assert "<b>Rex</b>" not in page


def test_events_are_read_only_in_the_admin(admin_client):
    event = recorded({"id": 7, "name": "Rex"})
    page = f"/admin/events/event/{event.pk}/change/"

    listed = admin_client.get("/admin/events/event/")
    admin_client.post(page, {"type": EventType.CATEGORY_CREATED, "data": "{}"})

    assert event.uid in listed.content.decode()
    assert admin_client.get("/admin/events/event/add/").status_code == HTTPStatus.FORBIDDEN
    assert admin_client.post(f"{page.removesuffix('change/')}delete/").status_code == (
        HTTPStatus.FORBIDDEN
    )
    event.refresh_from_db()
    assert (event.type, event.data) == (EventType.PET_CREATED, {"id": 7, "name": "Rex"})
