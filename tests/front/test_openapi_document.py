"""The OpenAPI document through nginx and gunicorn: a strong ETag, a 304 for If-None-Match, and
one document per host, each listing its own server first."""

from __future__ import annotations

import json
from http import HTTPStatus
from http.client import HTTPConnection, HTTPResponse

import pytest

from deploy.serve import Front
from tests.front.conftest import port_of

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def fetch(front: Front, host: str, **headers: str) -> tuple[HTTPResponse, bytes]:
    connection = HTTPConnection("127.0.0.1", port_of(front), timeout=10)
    try:
        connection.request("GET", "/v1/openapi.json", headers={"Host": host, **headers})
        answer = connection.getresponse()
        return answer, answer.read()
    finally:
        connection.close()


def test_the_document_has_a_strong_etag_and_answers_if_none_match_with_304(front: Front):
    answer, body = fetch(front, "127.0.0.1")
    tag = answer.headers["ETag"]

    again, empty = fetch(front, "127.0.0.1", **{"If-None-Match": tag})

    assert answer.status == HTTPStatus.OK
    assert json.loads(body)["openapi"].startswith("3")
    assert tag.startswith('"')
    assert again.status == HTTPStatus.NOT_MODIFIED
    assert again.headers["ETag"] == tag
    assert empty == b""


def test_two_hosts_get_two_documents_each_listing_its_own_server_first(front: Front):
    hosts = ["127.0.0.1", f"127.0.0.1:{port_of(front)}"]

    answers = {host: fetch(front, host) for host in hosts}

    for host, (answer, body) in answers.items():
        assert answer.status == HTTPStatus.OK
        assert json.loads(body)["servers"][0] == {
            "url": f"http://{host}/v1",
            "description": "This server",
        }
    tags = {answer.headers["ETag"] for answer, _ in answers.values()}
    assert len(tags) == 2
    # Another host's tag is not this document's.
    other, _ = fetch(front, hosts[1], **{"If-None-Match": answers[hosts[0]][0].headers["ETag"]})
    assert other.status == HTTPStatus.OK
