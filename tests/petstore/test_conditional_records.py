"""What a conditional GET keeps in Redis (petstore.conditional): the tag last served, kept for
one URL and one kind of caller under the versions it was served under, so that no other URL,
caller or state of the data is ever answered 304 with it."""

from __future__ import annotations

import logging
from http import HTTPStatus

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from events.types import EventType
from pets.services import pet_change_status
from petstore.conditional import SEEN, VERSION
from tests.petstore.test_conditional import (
    bearer,
    recorded_etag_of,
    still_current,
    still_current_unbuilt,
    threshold_passed,
)


@pytest.fixture
def commits(django_capture_on_commit_callbacks):
    """Run what a change does after its commit, as the server does when it commits."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def stored():
    """Redis as the service's conditional GETs leave it (the tests' own connection)."""
    return redis.Redis.from_url(settings.REDIS_URL)


def test_a_tag_recorded_for_one_query_is_not_current_for_another(client, api_key, make_pet, clock):
    make_pet("Rex")
    make_pet("Ada")
    etag = recorded_etag_of(client, api_key, "/v1/pets?limit=1")

    assert not still_current(client, api_key, "/v1/pets?limit=2", etag)


def test_a_tag_recorded_for_one_path_is_not_current_for_another(client, api_key, make_pet, clock):
    rex, ada = make_pet("Rex"), make_pet("Ada")
    etag = recorded_etag_of(client, api_key, f"/v1/pets/{rex.pk}")

    assert not still_current(client, api_key, f"/v1/pets/{ada.pk}", etag)


def test_a_publishable_key_is_never_answered_with_the_tag_a_secret_key_recorded(
    client, make_account, make_key, clock
):
    # Both hold the same scopes on one account, yet the feed shows a publishable key less:
    # not the account's own usage events.
    account = make_account()
    scopes = ["events:read"]
    secret = make_key(account, scopes=scopes)
    publishable = make_key(
        account, kind="publishable", scopes=scopes, origins=("https://shelter.example",)
    )
    threshold_passed(account.pk)
    etag = recorded_etag_of(client, secret, "/v1/events")

    answer = client.get("/v1/events", headers=bearer(publishable, **{"If-None-Match": etag}))

    assert answer.status_code == HTTPStatus.OK
    assert EventType.USAGE_THRESHOLD not in {event["type"] for event in answer.json()}


def test_a_version_lost_from_redis_never_brings_back_an_old_tag(
    client, api_key, make_pet, commits, stored, clock
):
    # A version evicted (or never written) reads as a fresh value, never as "none": a tag
    # recorded before the change must not match again once the changed version is lost.
    pet = make_pet()
    etag = recorded_etag_of(client, api_key, "/v1/pets")
    with commits():
        pet_change_status(pet_id=pet.pk, status="pending")

    stored.delete(f"{settings.REDIS_KEY_PREFIX}{VERSION}pets")

    assert not still_current(client, api_key, "/v1/pets", etag)


def test_every_tag_a_conditional_get_keeps_expires(client, api_key, make_pet, stored, clock):
    pet = make_pet()
    polls = [f"/v1/pets/{pet.pk}", "/v1/pets/999999", "/v1/categories"]
    for url in polls:
        client.get(url, headers=bearer(api_key, **{"If-None-Match": '"old"'}))

    kept = list(stored.scan_iter(f"{settings.REDIS_KEY_PREFIX}{SEEN}*"))

    assert len(kept) == 2  # the two answers served; the 404 keeps nothing
    assert all(0 < stored.ttl(name) <= 86_400 for name in kept)


def test_an_outage_names_the_versions_it_could_not_renew_and_304s_resume_after_it(
    client, api_key, make_pet, commits, settings, caplog, clock
):
    pet = make_pet()
    etag = recorded_etag_of(client, api_key, "/v1/pets")
    redis_url = settings.REDIS_URL
    settings.REDIS_URL = "redis://127.0.0.1:9/0"  # nothing listens there

    with caplog.at_level(logging.WARNING, logger="petstore.conditional"), commits():
        pet_change_status(pet_id=pet.pk, status="pending")
    settings.REDIS_URL = redis_url

    warned = [r.getMessage() for r in caplog.records if r.name == "petstore.conditional"]
    assert "could not renew the versions ['pets']: no 304 until they are" in warned
    assert not still_current(client, api_key, "/v1/pets", etag)
    # Redis is back: the versions are renewed on the next read, and polling is cheap again.
    etag = recorded_etag_of(client, api_key, "/v1/pets")
    assert still_current_unbuilt(client, api_key, "/v1/pets", etag)


def test_a_get_without_if_none_match_keeps_nothing_in_redis(client, api_key, make_pet, stored):
    make_pet()

    answer = client.get("/v1/pets", headers=bearer(api_key))

    assert answer.status_code == HTTPStatus.OK
    assert list(stored.scan_iter(f"{settings.REDIS_KEY_PREFIX}{SEEN}*")) == []


def test_a_head_with_the_current_tag_is_answered_304_without_building_the_answer(
    client, api_key, make_pet, clock
):
    make_pet()
    etag = recorded_etag_of(client, api_key, "/v1/pets")

    with CaptureQueriesContext(connection) as queries:
        answer = client.head("/v1/pets", headers=bearer(api_key, **{"If-None-Match": etag}))

    assert answer.status_code == HTTPStatus.NOT_MODIFIED
    assert answer["ETag"] == etag
    assert len(queries) == 0


def test_answers_and_304s_name_authorization_in_vary(client, api_key, make_pet, clock):
    make_pet()
    first = client.get("/v1/pets", headers=bearer(api_key))
    again = client.get("/v1/pets", headers=bearer(api_key, **{"If-None-Match": first["ETag"]}))

    for answer in (first, again):
        assert "Authorization" in [name.strip() for name in answer["Vary"].split(",")]


def test_a_pets_tag_recorded_before_getpets_sunset_is_answered_410_after_it(
    client, api_key, make_pet, settings, clock
):
    url = f"/v1/pets/{make_pet().pk}"
    etag = recorded_etag_of(client, api_key, url)

    settings.PETSTORE_GETPET_SUNSET_AT = timezone.now()
    answer = client.get(url, headers=bearer(api_key, **{"If-None-Match": etag}))

    assert answer.status_code == HTTPStatus.GONE


def test_the_tag_changes_with_the_link_when_the_page_is_the_same(client, api_key, make_pet, clock):
    make_pet("Rex")
    ada = make_pet("Ada")
    with_next = client.get("/v1/pets?limit=1", headers=bearer(api_key))
    ada.delete()

    alone = client.get("/v1/pets?limit=1", headers=bearer(api_key))

    assert alone.content == with_next.content
    assert "Link" in with_next
    assert "Link" not in alone
    assert alone["ETag"] != with_next["ETag"]
