"""GET /metrics is the operator's: the allowed addresses, or the bearer token; anyone else is
told there is nothing there, as the Error body."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.assertions import assert_error

pytestmark = pytest.mark.django_db  # the webhooks' gauges are read from the database


@pytest.fixture(autouse=True)
def _operator(settings, client):
    settings.PETSTORE_METRICS_TOKEN = "the-operator-s-token"
    # The test client tells the view it is one of several processes (wsgi.multiprocess); the
    # tests' process is alone, as runserver's is.
    client.defaults["wsgi.multiprocess"] = False


def test_loopback_may_scrape(client):
    response = client.get("/metrics")

    assert response.status_code == HTTPStatus.OK
    assert response["Content-Type"].startswith("text/plain")
    names = {family.name for family in text_string_to_metric_families(response.content.decode())}
    assert {"petstore_http_requests", "petstore_webhook_backlog"} <= names


def test_another_address_gets_the_error_body_404(client):
    response = client.get("/metrics", REMOTE_ADDR="203.0.113.9")

    assert_error(response, HTTPStatus.NOT_FOUND, "not_found")


@pytest.mark.parametrize("sent", ["Bearer wrong", "the-operator-s-token", "Bearer "])
def test_a_wrong_token_gets_the_error_body_404(client, sent):
    response = client.get("/metrics", REMOTE_ADDR="203.0.113.9", headers={"Authorization": sent})

    assert_error(response, HTTPStatus.NOT_FOUND, "not_found")


def test_the_token_opens_it_from_anywhere(client):
    response = client.get(
        "/metrics",
        REMOTE_ADDR="203.0.113.9",
        headers={"Authorization": "Bearer the-operator-s-token"},
    )

    assert response.status_code == HTTPStatus.OK


def test_without_a_token_set_no_token_opens_it(client, settings):
    settings.PETSTORE_METRICS_TOKEN = ""

    response = client.get(
        "/metrics", REMOTE_ADDR="203.0.113.9", headers={"Authorization": "Bearer "}
    )

    assert_error(response, HTTPStatus.NOT_FOUND, "not_found")
