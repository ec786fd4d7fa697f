"""One error format for every failure, whichever layer produced it."""

from __future__ import annotations

import logging
import re
from http import HTTPStatus

import pytest

from tests.assertions import assert_error
from tests.petstore.crash_urls import SECRET

CRASH_URLS = "tests.petstore.crash_urls"


@pytest.mark.parametrize("path", ["/v1/nope", "/v1/pets/", "/v1/pets/1/", "/v1/", "/v1/Pets"])
def test_it_answers_an_unknown_path_with_a_json_404(client, auth, path):
    response = client.get(path, headers=auth)

    assert_error(response, HTTPStatus.NOT_FOUND, "not_found")
    assert "Location" not in response


def test_it_answers_an_unknown_path_with_a_json_404_without_a_key(client):
    response = client.get("/v1/nope")

    assert_error(response, HTTPStatus.NOT_FOUND, "not_found")


def test_it_does_not_redirect_a_post_with_a_trailing_slash(client, auth):
    response = client.post("/v1/pets/", data="{}", content_type="application/json", headers=auth)

    assert_error(response, HTTPStatus.NOT_FOUND, "not_found")


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("DELETE", "/v1/pets", {"GET", "POST"}),
        ("PUT", "/v1/pets", {"GET", "POST"}),
        ("PUT", "/v1/pets/1", {"GET"}),
        ("PATCH", "/v1/pets/1", {"GET"}),
        ("PUT", "/v1/categories", {"GET", "POST"}),
    ],
)
def test_it_answers_a_wrong_method_with_a_json_405(client, auth, make_pet, method, path, allowed):
    make_pet()

    response = client.generic(
        method, path, data="{}", content_type="application/json", headers=auth
    )

    assert_error(response, HTTPStatus.METHOD_NOT_ALLOWED, "method_not_allowed")
    advertised = {name.strip() for name in response["Allow"].split(",")}
    assert allowed <= advertised
    assert method not in advertised


@pytest.mark.urls(CRASH_URLS)
@pytest.mark.parametrize("path", ["/v1/crash", "/v1/plain-crash"])
def test_it_answers_a_crash_with_a_500_that_tells_nothing(client, caplog, path):
    with caplog.at_level(logging.ERROR, logger="petstore.errors"):
        response = client.get(path, headers={"X-Request-ID": "req-crash-1"})

    body = assert_error(response, HTTPStatus.INTERNAL_SERVER_ERROR, "internal_error")
    text = response.content.decode()
    assert SECRET not in text
    assert "Traceback" not in text
    assert "RuntimeError" not in text
    assert "ZeroDivisionError" not in text
    # The client gets the request id, to quote when it reports the problem.
    assert "req-crash-1" in body["message"]
    assert response["X-Request-ID"] == "req-crash-1"


@pytest.mark.urls(CRASH_URLS)
@pytest.mark.parametrize("path", ["/v1/crash", "/v1/plain-crash"])
def test_it_logs_a_crash_with_its_request_id_and_traceback(client, caplog, path):
    with caplog.at_level(logging.ERROR, logger="petstore.errors"):
        client.get(path, headers={"X-Request-ID": "req-crash-2"})

    records = [r for r in caplog.records if r.name == "petstore.errors"]
    assert len(records) == 1
    record = records[0]
    assert record.levelno == logging.ERROR
    assert "req-crash-2" in record.getMessage()
    assert record.exc_info is not None
    assert SECRET in str(record.exc_info[1])


@pytest.mark.urls(CRASH_URLS)
@pytest.mark.parametrize("path", ["/v1/crash", "/v1/plain-crash"])
def test_it_keeps_a_crash_json_with_debug_on(client, settings, path):
    settings.DEBUG = True

    response = client.get(path)

    assert_error(response, HTTPStatus.INTERNAL_SERVER_ERROR, "internal_error")
    assert SECRET not in response.content.decode()


def test_it_keeps_an_unknown_path_json_with_debug_on(client, settings):
    settings.DEBUG = True

    response = client.get("/v1/nope")

    assert_error(response, HTTPStatus.NOT_FOUND, "not_found")
    assert b"<html" not in response.content.lower()


@pytest.mark.urls(CRASH_URLS)
@pytest.mark.parametrize("path", ["/v1/database-down", "/v1/plain-database-down"])
def test_it_answers_503_when_the_database_cannot_be_reached(client, caplog, path):
    with caplog.at_level(logging.ERROR, logger="petstore.errors"):
        response = client.get(path)

    assert_error(response, HTTPStatus.SERVICE_UNAVAILABLE, "service_unavailable")
    assert SECRET not in response.content.decode()
    assert any("database unavailable" in r.getMessage() for r in caplog.records)


def test_it_echoes_a_well_formed_request_id(client, auth):
    response = client.get("/v1/pets", headers={**auth, "X-Request-ID": "abc-123_DEF.4"})

    assert response.status_code == HTTPStatus.OK
    assert response["X-Request-ID"] == "abc-123_DEF.4"


def test_it_echoes_the_request_id_on_errors_too(client):
    response = client.get("/v1/nope", headers={"X-Request-ID": "lost-path-7"})

    assert response.status_code == HTTPStatus.NOT_FOUND
    assert response["X-Request-ID"] == "lost-path-7"


@pytest.mark.parametrize("supplied", [None, "", "has spaces", "<script>", "x" * 129, "é"])
def test_it_generates_a_request_id_when_none_usable_is_sent(client, auth, supplied):
    headers = dict(auth)
    if supplied is not None:
        headers["X-Request-ID"] = supplied

    first = client.get("/v1/pets", headers=headers)
    second = client.get("/v1/pets", headers=headers)

    assert re.fullmatch(r"[0-9a-f]{32}", first["X-Request-ID"])
    assert first["X-Request-ID"] != second["X-Request-ID"]
