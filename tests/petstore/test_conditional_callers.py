"""Whom a 304 is decided for before the view is made (petstore.conditional, through the hooks of
``petstore.viewsets.ConditionalViewSet``): a key admission let in, holding the scope of the
viewset's GET. Any other request is the view's to answer, whatever tag it names."""

from __future__ import annotations

from http import HTTPStatus

from tests.petstore.test_conditional import bearer, recorded_etag_of


def test_a_poll_without_a_key_is_refused_whatever_tag_it_names(client, api_key, make_pet, clock):
    make_pet()
    etag = recorded_etag_of(client, api_key, "/v1/pets")

    answer = client.get("/v1/pets", headers={"If-None-Match": etag})

    assert answer.status_code == HTTPStatus.UNAUTHORIZED
    assert "ETag" not in answer


def test_a_poll_with_an_unknown_key_is_refused_whatever_tag_it_names(
    client, api_key, make_pet, clock
):
    make_pet()
    etag = recorded_etag_of(client, api_key, "/v1/pets")
    unknown = api_key[:-4] + ("aaaa" if not api_key.endswith("aaaa") else "bbbb")

    answer = client.get("/v1/pets", headers=bearer(unknown, **{"If-None-Match": etag}))

    assert answer.status_code == HTTPStatus.UNAUTHORIZED
    assert "ETag" not in answer


def test_a_key_without_the_scope_is_refused_whatever_tag_it_names(
    client, make_account, make_key, make_pet, clock
):
    account = make_account()
    reader = make_key(account, scopes=["pets:read"])
    writer = make_key(account, scopes=["pets:write"])
    make_pet()
    etag = recorded_etag_of(client, reader, "/v1/pets")

    answer = client.get("/v1/pets", headers=bearer(writer, **{"If-None-Match": etag}))

    assert answer.status_code == HTTPStatus.FORBIDDEN
    assert "ETag" not in answer
