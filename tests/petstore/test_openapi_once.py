"""``GET /v1/openapi.json`` is built once per process (and per server the settings list): the
first request builds the document, every later one (and every 304) serves it from memory, with
the URL of the server it names written in. The
builds are counted by the view's ``generator_class`` (drf-spectacular's documented way to choose
the generator), the real one, wrapped."""

from __future__ import annotations

import json
import re
from http import HTTPStatus
from typing import Any

import pytest

from petstore.openapi_view import OpenApiView

REAL_GENERATOR = OpenApiView.generator_class
HOSTS = ["testserver", "shelter-a.example", "shelter-b.example"]


class CountingGenerator(REAL_GENERATOR):  # type: ignore[misc,valid-type]
    """The real generator, noting the host of each document it builds."""

    built: list[str] = []

    def get_schema(self, request: Any = None, public: bool = False) -> dict[str, Any]:
        CountingGenerator.built.append(request.get_host())
        schema: dict[str, Any] = super().get_schema(request=request, public=public)
        return schema


@pytest.fixture
def builds(monkeypatch, settings, db) -> list[str]:
    # A setting's change forgets the documents built, so that this test starts from none.
    settings.ALLOWED_HOSTS = HOSTS
    monkeypatch.setattr(OpenApiView, "generator_class", CountingGenerator)
    monkeypatch.setattr(CountingGenerator, "built", [])
    return CountingGenerator.built


def fetch(client, host: str = "testserver", **headers: str):
    return client.get("/v1/openapi.json", headers={"Host": host, **headers})


def fetch_from(client, host: str, number: int):
    """From an address of its own: the anonymous limit is per address, and so are callers."""
    address = f"10.0.{number // 250}.{number % 250 + 1}"
    return client.get("/v1/openapi.json", headers={"Host": host}, REMOTE_ADDR=address)


def test_the_second_request_builds_nothing_and_gets_the_same_bytes(client, builds):
    first = fetch(client)
    second = fetch(client)

    assert first.status_code == second.status_code == HTTPStatus.OK
    assert builds == ["testserver"]
    assert second.content == first.content
    assert second["ETag"] == first["ETag"]


def test_the_etag_is_strong_and_if_none_match_answers_304_without_building(client, builds):
    tag = fetch(client)["ETag"]

    again = fetch(client, **{"If-None-Match": tag})
    weakly = fetch(client, **{"If-None-Match": f'"other", W/{tag}'})
    other = fetch(client, **{"If-None-Match": '"not-this-one"'})

    assert re.fullmatch(r'"[0-9a-f]{32}"', tag)
    assert again.status_code == weakly.status_code == HTTPStatus.NOT_MODIFIED
    assert again.content == b""
    assert again["ETag"] == tag
    assert other.status_code == HTTPStatus.OK
    assert builds == ["testserver"]


def test_two_hosts_get_two_documents_from_one_build_each_listing_itself_first(client, builds):
    answers = {host: fetch(client, host) for host in HOSTS[1:] * 2}

    assert builds == HOSTS[1:2]
    first = {
        host: json.loads(answer.content)["servers"][0]["url"] for host, answer in answers.items()
    }
    assert first == {host: f"http://{host}/v1" for host in HOSTS[1:]}
    assert answers[HOSTS[1]]["ETag"] != answers[HOSTS[2]]["ETag"]


def test_hosts_and_ports_a_client_names_cost_no_build_of_their_own(client, builds):
    """A Host's port is checked by nothing (ALLOWED_HOSTS names hosts only): naming many must not
    make the process build many documents, nor push the real host's out."""
    named = [f"{HOSTS[0]}:{port}" for port in range(20000, 20200)] + HOSTS[1:]
    answers = {host: fetch_from(client, host, number) for number, host in enumerate(named)}

    real = fetch(client)

    assert fetch(client).content == real.content
    assert builds == [named[0]]
    # Each still lists itself first, with its port, under a tag of its own.
    for host, answer in answers.items():
        assert answer.status_code == HTTPStatus.OK
        assert json.loads(answer.content)["servers"][0]["url"] == f"http://{host}/v1"
    assert json.loads(real.content)["servers"][0]["url"] == "http://testserver/v1"
    assert len({answer["ETag"] for answer in [*answers.values(), real]}) == len(answers) + 1


def test_the_production_server_is_listed_once_beside_documents_for_other_hosts(
    client, builds, settings
):
    settings.ALLOWED_HOSTS = [*HOSTS, "petstore.example.com"]
    other = fetch(client, "shelter-a.example:8443")

    production = client.get(
        "/v1/openapi.json", headers={"Host": "petstore.example.com"}, secure=True
    )

    assert [server["url"] for server in json.loads(production.content)["servers"]] == [
        "https://petstore.example.com/v1",
        "https://staging.petstore.example.com/v1",
    ]
    assert [server["url"] for server in json.loads(other.content)["servers"]] == [
        "http://shelter-a.example:8443/v1",
        "https://petstore.example.com/v1",
        "https://staging.petstore.example.com/v1",
    ]
