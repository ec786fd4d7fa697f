"""GET /v1/events: each change's event, written with it, listed to those who may see it, and a
client following the Link misses none and sees none twice, even when transactions commit out
of order."""

from __future__ import annotations

import json
import threading
from datetime import timedelta
from http import HTTPStatus

import psycopg
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events.models import Event
from store import services as store_services
from tests.assertions import assert_validation_error

# The feed lists what committed transactions wrote: the tests' own must commit.
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def add_pet(client, key: str, category_id: int, name: str = "Rex"):
    return client.post(
        "/v1/pets",
        json.dumps({"name": name, "categoryId": category_id}),
        content_type="application/json",
        headers=bearer(key),
    )


def follow(client, key: str, url: str) -> tuple[list[dict], str]:
    """Every event from ``url`` on, following ``Link`` to an empty page; and that page's
    ``Link``, to come back to later."""
    events: list[dict] = []
    while True:
        response = client.get(url, headers=bearer(key))
        assert response.status_code == HTTPStatus.OK
        link = response.headers["Link"]
        url = link[1 : link.index(">")].removeprefix("http://testserver")
        if not response.json():
            return events, url
        events += response.json()


def test_a_new_pet_is_an_event_written_by_its_one_statement(client, api_key, dog):
    client.get("/v1/categories", headers=bearer(api_key))  # the key's first use, recorded
    with CaptureQueriesContext(connection) as queries:
        created = add_pet(client, api_key, dog.pk)

    assert created.status_code == HTTPStatus.CREATED
    assert len(queries) == 1
    events = client.get("/v1/events", headers=bearer(api_key)).json()
    assert [(e["type"], e["data"]) for e in events] == [("pet.created", created.json())]
    assert set(events[0]) == {"id", "type", "createdAt", "data"}


def test_a_pet_that_is_not_created_has_no_event(client, api_key):
    response = add_pet(client, api_key, 999_999)

    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert not Event.objects.exists()


def test_an_order_is_seen_by_its_account_and_the_pet_by_everyone(
    client, make_account, make_key, make_pet
):
    buyer = make_account()
    mine, theirs = make_key(buyer), make_key()
    pet = make_pet("Fido")
    order = store_services.order_place(account_id=buyer.pk, pet_id=pet.pk)
    store_services.order_cancel(order_id=order.pk)

    my_events = client.get("/v1/events", headers=bearer(mine)).json()
    their_events = client.get("/v1/events", headers=bearer(theirs)).json()

    assert [e["type"] for e in my_events] == [
        "pet.status_changed",
        "order.placed",
        "pet.status_changed",
        "order.cancelled",
    ]
    assert [e["type"] for e in their_events] == ["pet.status_changed", "pet.status_changed"]
    assert my_events[0]["data"] == {
        "id": pet.pk,
        "name": "Fido",
        "categoryId": pet.category_id,
        "status": "pending",
        "breed": None,
        "previousStatus": "available",
    }
    assert my_events[1]["data"]["id"] == order.pk
    assert my_events[3]["data"]["status"] == "cancelled"


def test_the_type_filter_and_the_scopes_choose_the_types(client, make_account, make_key, make_pet):
    buyer = make_account()
    full, pets_only = make_key(buyer), make_key(buyer, scopes=["events:read", "pets:read"])
    store_services.order_place(account_id=buyer.pk, pet_id=make_pet().pk)

    orders = client.get("/v1/events?type=order.placed,order.cancelled", headers=bearer(full))
    no_orders = client.get("/v1/events", headers=bearer(pets_only))

    assert [e["type"] for e in orders.json()] == ["order.placed"]
    assert [e["type"] for e in no_orders.json()] == ["pet.status_changed"]


@pytest.mark.parametrize("query", ["type=pet.adopted", "type=", "limit=0", "cursor=1:abc"])
def test_a_bad_parameter_is_a_400(client, api_key, query):
    response = client.get(f"/v1/events?{query}", headers=bearer(api_key))

    assert_validation_error(response, query.split("=")[0])


def test_without_the_scope_it_is_a_403(client, make_key):
    response = client.get("/v1/events", headers=bearer(make_key(scopes=["pets:read"])))

    assert response.status_code == HTTPStatus.FORBIDDEN


def test_following_the_link_sees_each_event_once_and_later_ones_too(client, api_key, dog):
    for n in range(23):
        add_pet(client, api_key, dog.pk, f"Pet {n}")

    first, last_page = follow(client, api_key, "/v1/events?limit=5")
    for n in range(3):
        add_pet(client, api_key, dog.pk, f"Later {n}")
    later, _ = follow(client, api_key, last_page)

    assert len(first) == 23
    assert [e["data"]["name"] for e in later] == ["Later 0", "Later 1", "Later 2"]
    assert len({e["id"] for e in first + later}) == 26


def test_events_older_than_30_days_are_not_listed_and_are_purged(client, api_key, dog):
    from webhooks.tasks import purge

    add_pet(client, api_key, dog.pk, "Old")
    add_pet(client, api_key, dog.pk, "New")
    Event.objects.filter(data__name="Old").update(
        created_at=Event.objects.get(data__name="Old").created_at - timedelta(days=31)
    )

    listed = client.get("/v1/events", headers=bearer(api_key)).json()

    assert [e["data"]["name"] for e in listed] == ["New"]
    assert purge() == 1
    assert list(Event.objects.values_list("data__name", flat=True)) == ["New"]


def pet_data(name: str, category_id: int) -> str:
    """A ``pet.created`` event's data as JSON, for an event written by hand."""
    return json.dumps(
        {"id": 999_999, "name": name, "categoryId": category_id, "status": "available"}
    )


def _dsn(database: str | None = None) -> str:
    settings = connection.settings_dict
    return (
        f"host={settings['HOST'] or '127.0.0.1'} port={settings['PORT'] or 5432} "
        f"user={settings['USER']} dbname={database or settings['NAME']}"
    )


def test_a_transaction_that_commits_late_is_not_missed(client, api_key, dog):
    """The earlier transaction writes its event, the later one commits first: the later is
    listed at once, the earlier when it commits, after it; each once."""
    written, release = threading.Event(), threading.Event()

    def slow_transaction() -> None:
        with psycopg.connect(_dsn()) as slow, slow.transaction():
            slow.execute(
                "INSERT INTO events_event (uid, type, data, created_at, fanned_out) "
                "VALUES ('evt_slow', 'pet.created', %s::jsonb, now(), false)",
                [pet_data("Slow", dog.pk)],
            )
            written.set()
            release.wait(10)

    add_pet(client, api_key, dog.pk, "First")
    seen, resume = follow(client, api_key, "/v1/events")
    thread = threading.Thread(target=slow_transaction)
    thread.start()
    written.wait(10)
    add_pet(client, api_key, dog.pk, "Fast")

    while_open, resume = follow(client, api_key, resume)
    release.set()
    thread.join()
    after, resume = follow(client, api_key, resume)
    later, _ = follow(client, api_key, resume)

    assert [e["data"]["name"] for e in seen] == ["First"]
    assert [e["data"]["name"] for e in while_open] == ["Fast"]
    assert [e["data"]["name"] for e in after] == ["Slow"]
    assert later == []
    everything, _ = follow(client, api_key, "/v1/events")
    assert [e["data"]["name"] for e in everything] == ["First", "Fast", "Slow"]


@pytest.mark.parametrize("where", ["another database", "this database"])
def test_a_transaction_left_open_elsewhere_does_not_hold_back_a_new_event(
    client, api_key, dog, where
):
    """A report, a backup or an idle session holding a transaction open on the same server
    (which counts every database's transactions as in flight) delays no one else's event."""
    database = "postgres" if where == "another database" else None
    with psycopg.connect(_dsn(database)) as idle, idle.transaction():
        # A transaction id of its own: what held back every later event before positions.
        idle.execute("SELECT pg_current_xact_id()")
        if database is None:  # and, in this database, an event of its own, not yet committed
            idle.execute(
                "INSERT INTO events_event (uid, type, data, created_at, fanned_out) "
                "VALUES ('evt_open', 'pet.created', %s::jsonb, now(), false)",
                [pet_data("Open", dog.pk)],
            )
        created = add_pet(client, api_key, dog.pk, "New")
        listed = client.get("/v1/events", headers=bearer(api_key)).json()

    assert [e["data"] for e in listed] == [created.json()]


def test_the_day_window_passing_80_and_100_percent_is_an_event_once_each(
    client, make_account, make_key, clock
):
    account = make_account(plan="enterprise", per_day=10)
    first, second = make_key(account), make_key(account)
    other = make_key()

    statuses = [
        client.get("/v1/categories", headers=bearer(key)).status_code for key in [first, second] * 6
    ]

    assert statuses.count(HTTPStatus.OK) == 10
    # Reading the feed is a request too: the window is full, so the other account reads it.
    seen = Event.objects.filter(type="usage.threshold").order_by("id")
    assert [e.data["percent"] for e in seen] == [80, 100]
    assert seen[0].data == {
        "window": "day",
        "percent": 80,
        "limit": 10,
        "used": 8,
        "date": "2026-11-21",  # the clock's day (tests/conftest.py CLOCK_START)
    }
    assert {e.account_id for e in seen} == {account.pk}
    assert client.get("/v1/events", headers=bearer(other)).json() == []


def test_types_sent_once_each_are_one_list(client, auth, dog):
    body = json.dumps({"name": "Rex", "categoryId": dog.pk})
    client.post("/v1/pets", body, content_type="application/json", headers=auth)

    repeated = client.get("/v1/events?type=pet.created&type=category.created", headers=auth)
    joined = client.get("/v1/events?type=pet.created,category.created", headers=auth)

    assert repeated.status_code == joined.status_code == 200
    assert repeated.json() == joined.json() != []


@pytest.mark.parametrize(
    "query", ["type=pet.created,pet.created", "type=pet.created&type=order.placed,pet.created"]
)
def test_a_type_named_twice_is_refused_as_the_document_says(client, auth, query):
    answer = client.get(f"/v1/events?{query}", headers=auth)

    assert answer.status_code == 400
    assert answer.json()["message"] == (
        'Invalid `type`: "pet.created" is named twice; name each type once.'
    )
