"""A viewset of any app answers its GETs conditionally by subclassing ``ConditionalViewSet``
and declaring its hooks (petstore.viewsets): here one of the tests' own
(``tests/petstore/notice.py``), which answers as DRF's views do."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from http import HTTPStatus

import pytest

from petstore.conditional import changed
from tests.petstore.notice import NOTICE_VERSION, notice
from tests.petstore.test_conditional import bearer, still_current

pytestmark = pytest.mark.urls("tests.petstore.conditional_urls")


@pytest.fixture(autouse=True)
def fresh_notice() -> Iterator[None]:
    notice.text, notice.built = "Open on Saturday", 0
    notice.own.clear()
    yield
    notice.text, notice.built = "Open on Saturday", 0
    notice.own.clear()


def test_its_response_is_tagged_by_its_bytes_and_keeps_its_own_vary(client, api_key, clock):
    answer = client.get("/v1/notice", headers=bearer(api_key))

    assert answer.status_code == HTTPStatus.OK
    assert answer.json() == {"notice": "Open on Saturday"}
    assert answer["ETag"] == f'"{hashlib.md5(answer.content, usedforsecurity=False).hexdigest()}"'
    assert [name.strip() for name in answer["Vary"].split(",")] == [
        "Accept-Language",
        "Authorization",
    ]


def test_its_versions_decide_a_304_before_the_view_is_made(
    client, api_key, django_capture_on_commit_callbacks, clock
):
    etag = client.get("/v1/notice", headers=bearer(api_key))["ETag"]
    assert still_current(client, api_key, "/v1/notice", etag)  # the tag is recorded
    built = notice.built

    assert still_current(client, api_key, "/v1/notice", etag)
    assert notice.built == built

    notice.text = "Closed on Saturday"
    with django_capture_on_commit_callbacks(execute=True):
        changed(NOTICE_VERSION)
    answer = client.get("/v1/notice", headers=bearer(api_key, **{"If-None-Match": etag}))

    assert answer.status_code == HTTPStatus.OK
    assert answer.json() == {"notice": "Closed on Saturday"}


def test_the_tag_another_account_was_served_is_never_current_for_this_one(
    client, make_account, make_key, django_capture_on_commit_callbacks, clock
):
    ours, theirs = make_account(), make_account()
    our_key, their_key = make_key(ours), make_key(theirs)
    etag = client.get("/v1/notice", headers=bearer(our_key))["ETag"]
    # Our notice changes; theirs is still the one we were served.
    notice.own[ours.pk] = "Closed for us"
    with django_capture_on_commit_callbacks(execute=True):
        changed(NOTICE_VERSION)
    assert still_current(client, their_key, "/v1/notice", etag)  # recorded for them

    answer = client.get("/v1/notice", headers=bearer(our_key, **{"If-None-Match": etag}))

    assert answer.status_code == HTTPStatus.OK
    assert answer.json() == {"notice": "Closed for us"}
