"""Inputs a hostile or careless client sends: each is a 4xx Error body, and nothing is written."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import pytest
from django.test import Client

from pets.models import Pet
from petstore.models import IdempotencyRecord
from store.models import Order
from tests.assertions import assert_error

POSTS = ["/v1/pets", "/v1/store/orders"]


def nothing_written() -> bool:
    return not Pet.objects.exists() and not Order.objects.exists()


def post(client, auth, path, raw: str, **headers):
    return client.post(
        path, data=raw.encode(), content_type="application/json", headers={**auth, **headers}
    )


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize("opening", ["[", '{"a":'])
def test_a_deeply_nested_body_is_malformed(client, auth, path, opening):
    raw = '{"name": ' + opening * 5000

    response = post(client, auth, path, raw)

    assert_error(response, HTTPStatus.BAD_REQUEST, "malformed_request")
    assert nothing_written()


@pytest.mark.parametrize("path", POSTS)
def test_a_complete_but_deep_body_is_malformed_too(client, auth, path, dog):
    raw = '{"name": ' + "[" * 500 + "]" * 500 + f', "categoryId": {dog.pk}, "petId": 1}}'

    response = post(client, auth, path, raw)

    body = assert_error(response, HTTPStatus.BAD_REQUEST, "malformed_request")
    assert "nested" in body["message"]
    assert nothing_written()


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize(
    "raw",
    [
        '{"name": "Rex\\ud800", "categoryId": 1}',
        '{"petId": 1, "status": ["\\udfff"]}',
        '{"\\ud800": 1}',
        '{"name\\udc00x": "Rex"}',
    ],
)
def test_a_lone_surrogate_is_malformed(client, auth, path, raw):
    response = post(client, auth, path, raw)

    assert_error(response, HTTPStatus.BAD_REQUEST, "malformed_request")
    assert nothing_written()


@pytest.mark.parametrize("path", POSTS)
def test_a_refused_idempotent_post_is_replayed_exactly_as_first_answered(client, auth, path):
    raw = '{"\\ud800": "x"}'

    first = post(client, auth, path, raw, **{"Idempotency-Key": "surrogate-1"})
    again = post(client, auth, path, raw, **{"Idempotency-Key": "surrogate-1"})

    assert_error(first, HTTPStatus.BAD_REQUEST, "malformed_request")
    # A body that cannot be parsed is refused before any claim: nothing to replay, nothing kept.
    assert (again.status_code, again.content) == (first.status_code, first.content)
    assert not IdempotencyRecord.objects.exists()
    assert nothing_written()


def test_a_validation_error_quoting_unicode_is_replayed_byte_for_byte(client, auth, dog):
    raw = f'{{"name": "Rex", "categoryId": {dog.pk}, "colour": "brun café ☕"}}'
    headers = {"Idempotency-Key": "unicode-1"}

    first = post(client, auth, "/v1/pets", raw, **headers)
    again = post(client, auth, "/v1/pets", raw, **headers)

    assert_error(first, HTTPStatus.BAD_REQUEST, "validation_error")
    assert again["Idempotent-Replayed"] == "true"
    assert (again.status_code, again.content) == (first.status_code, first.content)
    assert IdempotencyRecord.objects.get().body == first.content.decode()
    assert nothing_written()


@pytest.mark.parametrize("path", ["/v1/pets", "/v1/store/orders"])
def test_over_a_thousand_query_parameters_are_malformed(client, auth, path):
    query = "&".join(f"p{n}=1" for n in range(1500))

    response = client.get(f"{path}?{query}", headers=auth)

    assert_error(response, HTTPStatus.BAD_REQUEST, "malformed_request")


def test_over_a_thousand_query_parameters_on_the_public_schema(client, db):
    query = "&".join(f"p{n}=1" for n in range(1500))

    response = client.get(f"/v1/openapi.json?{query}")

    assert_error(response, HTTPStatus.BAD_REQUEST, "malformed_request")
    assert response["X-RateLimit-Limit"] == "60"


@pytest.mark.parametrize("path", ["/v1", "/v1?limit=1", "//v1/pets", "//v1", "/nowhere", "//"])
def test_the_base_url_and_stray_paths_answer_a_json_404(client, auth, path):
    path_info, _, query = path.partition("?")
    # Set in the environment as a server would: the test client reads "//v1" as a host name.
    response = client.get("/", PATH_INFO=path_info, QUERY_STRING=query, headers=auth)

    assert_error(response, HTTPStatus.NOT_FOUND, "not_found")


def test_the_base_url_reports_the_limit_like_any_api_path(client, auth):
    response = client.get("/v1", headers=auth)

    assert response["X-RateLimit-Limit"] == "60"
    assert response["X-RateLimit-Remaining"] == "59"


@pytest.mark.parametrize("path", ["/healthz", "/readyz", "/v1/pets"])
def test_a_disallowed_host_is_a_json_400(client, db, path):
    response = client.get(path, HTTP_HOST="evil.example")

    assert_error(response, HTTPStatus.BAD_REQUEST, "malformed_request")


def test_a_host_allowed_before_is_refused_once_allowed_hosts_drop_it(client, auth, settings):
    # Every API request checks its Host against the setting as it stands (petstore.api_http).
    settings.ALLOWED_HOSTS = ["api.example"]
    assert client.get("/v1/pets", headers=auth, HTTP_HOST="api.example").status_code == 200

    settings.ALLOWED_HOSTS = ["other.example"]
    response = client.get("/v1/pets", headers=auth, HTTP_HOST="api.example")

    assert_error(response, HTTPStatus.BAD_REQUEST, "malformed_request")


@pytest.mark.parametrize("path", ["/healthz", "/readyz"])
@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
def test_the_probes_answer_other_methods_with_a_json_405(db, path, method):
    # A real browser-like client: Django's CSRF check is on, as it is for every caller.
    client = Client(enforce_csrf_checks=True)

    response: Any = client.generic(method, path)

    assert_error(response, HTTPStatus.METHOD_NOT_ALLOWED, "method_not_allowed")
    assert set(response["Allow"].replace(" ", "").split(",")) == {"GET", "HEAD"}


@pytest.mark.parametrize("path", ["/healthz", "/readyz"])
def test_the_probes_answer_head(client, db, path):
    response = client.head(path)

    assert response.status_code == HTTPStatus.OK
    assert response.content == b""


@pytest.mark.parametrize("query", ["cursor=", "limit=", "status="])
def test_an_empty_query_parameter_is_invalid(client, auth, query):
    response = client.get(f"/v1/pets?{query}", headers=auth)

    assert_error(response, HTTPStatus.BAD_REQUEST, "validation_error")
    assert list(response.json()["errors"]) == [query.rstrip("=")]


@pytest.mark.parametrize(
    "content_type", ["*/*", "application/*", "text/plain", "application/jsonx", "json"]
)
def test_only_application_json_is_parsed_as_json(client, auth, dog, content_type):
    response = client.post(
        "/v1/pets",
        data=f'{{"name": "Rex", "categoryId": {dog.pk}}}',
        content_type=content_type,
        headers=auth,
    )

    assert_error(response, HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type")
    assert nothing_written()


@pytest.mark.parametrize(
    "content_type", ["application/json", "application/json; charset=utf-8", "Application/JSON"]
)
def test_application_json_is_parsed_with_or_without_a_charset(client, auth, dog, content_type):
    response = client.post(
        "/v1/pets",
        data=f'{{"name": "Rex", "categoryId": {dog.pk}}}',
        content_type=content_type,
        headers=auth,
    )

    assert response.status_code == HTTPStatus.CREATED


@pytest.mark.parametrize("path", ["/v1/pets/0", "/v1/pets/-1", "/v1/pets/-9223372036854775808"])
def test_ids_below_one_are_not_found(client, auth, path):
    response = client.get(path, headers=auth)

    assert_error(response, HTTPStatus.NOT_FOUND, "not_found")


def test_the_schema_says_ids_start_at_one(client, db):
    schema = client.get("/v1/openapi.json").json()

    for path, name in (("/pets/{petId}", "petId"), ("/store/orders/{orderId}", "orderId")):
        operation = next(iter(schema["paths"][path].values()))
        (parameter,) = [p for p in operation["parameters"] if p["name"] == name]
        assert parameter["schema"]["minimum"] == 1
        assert parameter["schema"]["maximum"] == 2**63 - 1


def rows() -> tuple[int, int, int]:
    return Pet.objects.count(), Order.objects.count(), IdempotencyRecord.objects.count()


def test_a_key_named_twice_is_refused_by_name_and_creates_nothing(client, auth, dog):
    before = rows()
    raw = f'{{"name": "a", "categoryId": {dog.pk}, "name": "b"}}'

    response = post(client, auth, "/v1/pets", raw, **{"Idempotency-Key": "twice-1"})

    body = assert_error(response, HTTPStatus.BAD_REQUEST, "malformed_request")
    assert "`name`" in body["message"]
    assert rows() == before


def test_a_key_named_twice_in_a_nested_object_is_refused_by_name(client, auth, dog):
    before = rows()
    raw = f'{{"name": "a", "categoryId": {dog.pk}, "breed": {{"kind": 1, "kind": 2}}}}'

    response = post(client, auth, "/v1/pets", raw)

    body = assert_error(response, HTTPStatus.BAD_REQUEST, "malformed_request")
    assert "`kind`" in body["message"]
    assert rows() == before


def test_a_key_named_twice_is_refused_when_placing_an_order(client, auth, make_pet):
    pet = make_pet()
    before = rows()
    raw = f'{{"petId": {pet.pk}, "petId": {pet.pk}}}'

    response = post(client, auth, "/v1/store/orders", raw)

    body = assert_error(response, HTTPStatus.BAD_REQUEST, "malformed_request")
    assert "`petId`" in body["message"]
    assert rows() == before
    pet.refresh_from_db()
    assert pet.status == "available"


def test_a_key_named_twice_is_refused_even_with_an_unencodable_name(client, auth):
    response = post(client, auth, "/v1/pets", '{"\\ud800": 1, "\\ud800": 2}')

    body = assert_error(response, HTTPStatus.BAD_REQUEST, "malformed_request")
    assert "surrogate" in body["message"]
    assert nothing_written()
