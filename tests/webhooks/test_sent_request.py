"""The POST a delivery sends (webhooks.delivery.Sender), as a receiver on loopback gets it: its
path and query, its Host, its content type and user agent, and a signature each secret of a
rotation verifies alone."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from events.models import Event
from tests.webhooks.conftest import attempts, serving
from webhooks.addresses import Target
from webhooks.delivery import USER_AGENT, Sender, host_header
from webhooks.models import Endpoint, new_secret

pytestmark = pytest.mark.django_db


@pytest.fixture
def endpoint(make_account, receiver, settings) -> Endpoint:
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True  # the receiver is on loopback
    return Endpoint.objects.create(account=make_account(), url=receiver.url, events=["pet.created"])


def sent(endpoint: Endpoint) -> None:
    event = Event.objects.create(type="pet.created", data={}, created_at=timezone.now())
    with Sender(endpoint) as sender:
        assert sender.attempt(event).delivered


def test_a_post_says_it_is_json_and_names_the_service(endpoint, receiver):
    sent(endpoint)

    (delivered,) = receiver.received
    headers = {name.lower(): value for name, value in delivered.headers.items()}
    assert headers["content-type"] == "application/json"
    assert headers["user-agent"] == USER_AGENT


def test_during_a_rotation_each_secret_alone_verifies_the_post(endpoint, receiver):
    old, new = endpoint.secret, new_secret()
    endpoint.secret, endpoint.previous_secret = new, old
    endpoint.previous_secret_expires_at = timezone.now() + timedelta(hours=1)
    endpoint.save()

    sent(endpoint)

    # Each raises unless one of the post's signatures is its own.
    (by_old,) = receiver.verified(old)
    (by_new,) = receiver.verified(new)
    assert by_old == by_new
    assert by_old["type"] == "pet.created"


def test_a_post_goes_to_the_urls_path_and_query(endpoint_at, receiver):
    (attempt,) = attempts(endpoint_at(receiver.url + "?from=petstore"))

    assert attempt.delivered
    assert [delivered.path for delivered in receiver.received] == ["/hooks?from=petstore"]


def test_a_post_to_an_ipv6_address_names_it_in_brackets(endpoint_at):
    with serving(at=("::1", 0)) as receiver:
        (attempt,) = attempts(endpoint_at(receiver.url))

    assert attempt.delivered
    (delivered,) = receiver.received
    assert delivered.headers["Host"] == f"[::1]:{receiver.server.server_port}"


@pytest.mark.parametrize(
    ("scheme", "host", "port", "named"),
    [
        ("http", "hooks.example.com", 80, "hooks.example.com"),
        ("https", "hooks.example.com", 443, "hooks.example.com"),
        ("http", "hooks.example.com", 443, "hooks.example.com:443"),
        ("https", "hooks.example.com", 80, "hooks.example.com:80"),
        ("https", "hooks.example.com", 8443, "hooks.example.com:8443"),
        ("https", "2001:db8::1", 443, "[2001:db8::1]"),
        ("http", "2001:db8::1", 8080, "[2001:db8::1]:8080"),
    ],
)
def test_the_host_header_names_the_port_only_when_it_is_not_the_schemes(scheme, host, port, named):
    # The receivers on loopback listen on ports of their own: the default ports are shown here.
    assert host_header(Target(scheme, host, port, "/hooks", "203.0.113.9")) == named
