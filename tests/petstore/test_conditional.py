"""Conditional GETs (docs/design.md#conditional-gets): a strong ETag on what partners poll, 304
while it is current, and a 304 spends the minute window but nothing of the day's."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from apikeys.limiter import account_usage
from apikeys.windows import WINDOWS
from events.models import Event
from events.services import event_record
from events.types import EventType
from pets.models import Category, Pet
from pets.services import pet_change_status
from store.services import order_approve, order_place

LIMIT_HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")
DRAFT_HEADERS = ("RateLimit-Policy", "RateLimit")
CONDITIONAL_GETS = [
    "/v1/pets?limit=20",
    "/v1/pets/{pet}",
    "/v1/categories",
    "/v1/categories/{category}",
    "/v1/store/orders",
    "/v1/store/orders/{order}",
    "/v1/events",
    "/v1/webhook_endpoints",
    "/v1/webhook_endpoints/{endpoint}",
]


def bearer(key: str, **more: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}", **more}


@pytest.fixture
def commits(django_capture_on_commit_callbacks):
    """Run what a change does after its commit, as the server does when it commits."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def things(client, api_key, make_pet, commits, settings):
    """One of each resource a conditional GET shows, the account's own where it has one."""
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True
    pet = make_pet("Rex")
    with commits():
        order = client.post(
            "/v1/store/orders",
            {"petId": make_pet("Ada").pk},
            "application/json",
            headers=bearer(api_key),
        ).json()
        endpoint = client.post(
            "/v1/webhook_endpoints",
            {"url": "http://127.0.0.1:9/hook", "events": ["pet.created"]},
            "application/json",
            headers=bearer(api_key),
        ).json()
    return {
        "pet": pet.pk,
        "category": pet.category_id,
        "order": order["id"],
        "endpoint": endpoint["id"],
    }


@pytest.mark.parametrize("path", CONDITIONAL_GETS)
def test_a_current_etag_is_answered_304_with_the_same_etag_and_the_limits_headers(
    client, api_key, things, clock, path
):
    url = path.format(**things)
    first = client.get(url, headers=bearer(api_key))
    etag = first["ETag"]

    again = client.get(url, headers=bearer(api_key, **{"If-None-Match": etag}))

    assert first.status_code == HTTPStatus.OK
    assert etag.startswith('"')  # strong: no W/
    assert first["Cache-Control"] == "private, no-cache"
    assert "Authorization" in first["Vary"]
    assert again.status_code == HTTPStatus.NOT_MODIFIED
    assert again.content == b""
    assert again["ETag"] == etag
    assert again["Cache-Control"] == "private, no-cache"
    assert "Authorization" in again["Vary"]
    for name in (*LIMIT_HEADERS, *DRAFT_HEADERS):
        assert again[name]


@pytest.mark.parametrize(
    "asked",
    [
        '"nope", {etag}',  # a list
        "W/{etag}",  # weak comparison
        '"nope",W/{etag} , "other"',
        "*",  # any current answer
    ],
)
def test_if_none_match_is_read_as_rfc_9110_says(client, api_key, make_pet, clock, asked):
    make_pet()
    etag = client.get("/v1/pets", headers=bearer(api_key))["ETag"]

    response = client.get(
        "/v1/pets", headers=bearer(api_key, **{"If-None-Match": asked.format(etag=etag)})
    )

    assert response.status_code == HTTPStatus.NOT_MODIFIED


def test_an_etag_that_is_not_current_gets_the_answer(client, api_key, make_pet, clock):
    make_pet()
    etag = client.get("/v1/pets", headers=bearer(api_key))["ETag"]

    response = client.get("/v1/pets", headers=bearer(api_key, **{"If-None-Match": '"old"'}))

    assert response.status_code == HTTPStatus.OK
    assert response["ETag"] == etag
    assert response.json()[0]["name"] == "Rex"


def test_star_does_not_name_what_does_not_exist(client, api_key, db, clock):
    response = client.get("/v1/pets/999", headers=bearer(api_key, **{"If-None-Match": "*"}))

    assert response.status_code == HTTPStatus.NOT_FOUND
    assert "ETag" not in response


def etag_of(client, key: str, url: str) -> str:
    response = client.get(url, headers=bearer(key))
    assert response.status_code == HTTPStatus.OK
    return response["ETag"]


def recorded_etag_of(client, key: str, url: str) -> str:
    """The tag of ``url``'s answer, recorded as a poller's is: the 304 that follows is decided
    from the versions alone, so a test of what changes them can fail."""
    etag = etag_of(client, key, url)
    # The first conditional GET records the tag under the versions it read.
    assert still_current(client, key, url, etag), url
    assert still_current_unbuilt(client, key, url, etag), url
    return etag


def still_current_unbuilt(client, key: str, url: str, etag: str) -> bool:
    """Whether ``etag`` is current, decided before the view builds the answer (no query)."""
    with CaptureQueriesContext(connection) as queries:
        current = still_current(client, key, url, etag)
    return current and len(queries) == 0


def still_current(client, key: str, url: str, etag: str) -> bool:
    response = client.get(url, headers=bearer(key, **{"If-None-Match": etag}))
    return response.status_code == HTTPStatus.NOT_MODIFIED


def test_the_etag_changes_when_a_pets_status_changes(client, api_key, make_pet, commits, clock):
    pet = make_pet()
    tags = {
        url: recorded_etag_of(client, api_key, url) for url in ("/v1/pets", f"/v1/pets/{pet.pk}")
    }

    with commits():
        pet_change_status(pet_id=pet.pk, status="pending")

    for url, etag in tags.items():
        assert not still_current(client, api_key, url, etag), url
    assert client.get(f"/v1/pets/{pet.pk}", headers=bearer(api_key)).json()["status"] == "pending"


def test_the_etag_changes_when_a_pet_is_added_through_the_api(client, api_key, dog, commits, clock):
    etag = recorded_etag_of(client, api_key, "/v1/pets")

    with commits():
        client.post(
            "/v1/pets",
            {"name": "Ada", "categoryId": dog.pk},
            "application/json",
            headers=bearer(api_key),
        )

    assert not still_current(client, api_key, "/v1/pets", etag)


def test_the_etag_changes_when_staff_edit_a_pet_in_the_admin(
    client, admin_client, api_key, make_pet, commits, clock
):
    pet = make_pet()
    etag = recorded_etag_of(client, api_key, "/v1/pets")

    with commits():
        admin_client.post(
            f"/admin/pets/pet/{pet.pk}/change/",
            {"name": "Renamed", "category": pet.category_id, "status": pet.status},
        )

    assert Pet.objects.get(pk=pet.pk).name == "Renamed"
    assert not still_current(client, api_key, "/v1/pets", etag)


def test_the_etag_changes_when_a_category_is_added(client, api_key, dog, commits, clock):
    etag = recorded_etag_of(client, api_key, "/v1/categories")

    with commits():
        Category.objects.create(name="Rabbit")

    assert not still_current(client, api_key, "/v1/categories", etag)


def test_the_etag_changes_when_an_order_of_the_account_moves(
    client, api_key, things, commits, clock
):
    urls = ("/v1/store/orders", f"/v1/store/orders/{things['order']}")
    tags = {url: recorded_etag_of(client, api_key, url) for url in urls}

    with commits():
        order_approve(order_id=things["order"])

    for url, etag in tags.items():
        assert not still_current(client, api_key, url, etag), url


def test_another_accounts_order_leaves_the_etag_as_it_was(
    client, api_key, make_account, make_pet, commits, clock
):
    pet = make_pet("Ada")
    etag = recorded_etag_of(client, api_key, "/v1/store/orders")

    with commits():
        order_place(account_id=make_account(name="Another shelter").pk, pet_id=pet.pk)

    assert still_current_unbuilt(client, api_key, "/v1/store/orders", etag)


def test_another_accounts_own_event_leaves_the_feeds_etag_as_it_was(
    client, api_key, make_account, commits, clock
):
    etag = recorded_etag_of(client, api_key, "/v1/events")

    with commits():
        threshold_passed(make_account(name="Another shelter").pk)

    assert still_current_unbuilt(client, api_key, "/v1/events", etag)


def threshold_passed(account_id: int) -> None:
    with transaction.atomic():
        event_record(
            EventType.USAGE_THRESHOLD,
            {"window": "day", "percent": 80, "limit": 1000, "used": 800, "date": "2026-11-21"},
            account_id=account_id,
        )


def test_the_etag_changes_when_an_event_the_key_may_see_is_written(
    client, api_key, key_row, commits, clock
):
    etag = recorded_etag_of(client, api_key, "/v1/events")

    with commits():
        threshold_passed(key_row.account_id)

    assert not still_current(client, api_key, "/v1/events", etag)
    assert client.get("/v1/events", headers=bearer(api_key)).json()[-1]["type"] == (
        "usage.threshold"
    )


def test_a_304_spends_the_minute_but_not_the_day(client, api_key, key_row, make_pet, clock):
    make_pet()
    first = client.get("/v1/pets", headers=bearer(api_key))
    used = account_usage(key_row.account_id)

    again = client.get("/v1/pets", headers=bearer(api_key, **{"If-None-Match": first["ETag"]}))

    after = account_usage(key_row.account_id)
    assert again.status_code == HTTPStatus.NOT_MODIFIED
    assert (after.this_minute, after.today) == (used.this_minute + 1, used.today)
    # Each window as its row says (WindowSpec.counts_304).
    spent = [now - before for now, before in zip(after.counts, used.counts, strict=True)]
    assert spent == [int(w.counts_304) for w in WINDOWS]
    # A Free key: 60 a minute, 1,000 a day; the minute is the tightest, and says so.
    assert again["X-RateLimit-Limit"] == "60"
    assert again["X-RateLimit-Remaining"] == str(60 - after.this_minute)
    assert again["RateLimit-Policy"] == first["RateLimit-Policy"]


def test_a_304_reports_the_days_remaining_as_it_was_when_the_day_is_the_tightest(
    client, make_key, make_pet, clock
):
    key = make_key(plan="enterprise", per_day=90)
    make_pet()
    first = client.get("/v1/pets", headers=bearer(key))

    again = client.get("/v1/pets", headers=bearer(key, **{"If-None-Match": first["ETag"]}))

    assert first["X-RateLimit-Remaining"] == "89"
    assert again.status_code == HTTPStatus.NOT_MODIFIED
    assert again["X-RateLimit-Remaining"] == "89"
    assert again["RateLimit"].startswith('"day";r=89;')


def test_a_flood_of_304s_is_still_refused_by_the_minute(client, api_key, make_pet, clock):
    make_pet()
    etag = client.get("/v1/pets", headers=bearer(api_key))["ETag"]

    answers = [
        client.get("/v1/pets", headers=bearer(api_key, **{"If-None-Match": etag})).status_code
        for _ in range(60)
    ]

    assert answers == [HTTPStatus.NOT_MODIFIED] * 59 + [HTTPStatus.TOO_MANY_REQUESTS]


def test_without_redis_the_etag_is_made_from_the_answer_and_still_honoured(
    client, api_key, make_pet, settings, clock
):
    settings.REDIS_URL = ""
    make_pet()
    first = client.get("/v1/pets", headers=bearer(api_key))

    again = client.get("/v1/pets", headers=bearer(api_key, **{"If-None-Match": first["ETag"]}))
    make_pet("Ada")
    changed = client.get("/v1/pets", headers=bearer(api_key, **{"If-None-Match": first["ETag"]}))

    assert again.status_code == HTTPStatus.NOT_MODIFIED
    assert changed.status_code == HTTPStatus.OK
    assert [pet["name"] for pet in changed.json()] == ["Rex", "Ada"]


def test_while_redis_is_unreachable_no_change_is_missed(client, api_key, make_pet, settings, clock):
    make_pet()
    etag = etag_of(client, api_key, "/v1/pets")
    settings.REDIS_URL = "redis://127.0.0.1:9/0"  # nothing listens there

    make_pet("Ada")  # its version cannot be written
    answer = client.get("/v1/pets", headers=bearer(api_key, **{"If-None-Match": etag}))

    assert answer.status_code == HTTPStatus.OK
    assert len(answer.json()) == 2


def test_cors_lets_a_web_page_read_the_etag(client, make_key, make_pet, clock):
    key = make_key(kind="publishable", scopes=["pets:read"], origins=("https://shelter.example",))
    make_pet()

    response = client.get("/v1/pets", headers=bearer(key, Origin="https://shelter.example"))

    assert response["Access-Control-Allow-Origin"] == "https://shelter.example"
    assert "ETag" in response["Access-Control-Expose-Headers"].split(", ")


def test_a_browser_may_send_if_none_match(client, db):
    response = client.options(
        "/v1/pets",
        headers={
            "Origin": "https://shelter.example",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "authorization, if-none-match",
        },
    )

    assert response.status_code == HTTPStatus.NO_CONTENT
    assert "if-none-match" in response["Access-Control-Allow-Headers"]


def test_a_304_of_a_list_polled_again_is_decided_without_building_the_answer(
    client, api_key, make_pet, django_assert_num_queries, clock
):
    make_pet()
    etag = etag_of(client, api_key, "/v1/pets?limit=20")
    polled = bearer(api_key, **{"If-None-Match": etag})
    assert client.get("/v1/pets?limit=20", headers=polled).status_code == HTTPStatus.NOT_MODIFIED

    with django_assert_num_queries(0):
        again = client.get("/v1/pets?limit=20", headers=polled)

    assert again.status_code == HTTPStatus.NOT_MODIFIED
    assert again["ETag"] == etag


def test_304s_around_a_day_threshold_write_its_event_once(client, make_key, make_pet, clock):
    key = make_key(plan="enterprise", per_day=10)
    make_pet()
    etag = etag_of(client, key, "/v1/pets")
    for _ in range(6):
        etag_of(client, key, "/v1/pets")

    # The 8th request of the day passes 80 %: it keeps its count, the 304s after it do not.
    answers = [
        client.get("/v1/pets", headers=bearer(key, **{"If-None-Match": etag})) for _ in range(5)
    ]

    assert [a.status_code for a in answers] == [HTTPStatus.NOT_MODIFIED] * 5
    assert [a["X-RateLimit-Remaining"] for a in answers] == ["2"] * 5
    assert Event.objects.filter(type=EventType.USAGE_THRESHOLD).count() == 1
