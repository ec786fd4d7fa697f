"""The limiter's own Redis connection, against the real server."""

from __future__ import annotations

import socket

import pytest
from django.conf import settings

from apikeys.redis_client import ConnectionFailed, RedisClient, ReplyError


@pytest.fixture
def client():
    client = RedisClient(settings.REDIS_URL)
    yield client
    client.close()


def test_it_speaks_to_the_database_the_url_names(client):
    client.execute("SET", "redis-client-test", "x")
    database = int(settings.REDIS_URL.rsplit("/", 1)[1])

    info = client.execute("CLIENT", "INFO").decode()

    assert f" db={database} " in info
    assert client.execute("GET", "redis-client-test") == b"x"


def test_an_error_reply_is_raised_and_the_connection_goes_on(client):
    client.execute("SET", "redis-client-test", "not a number")

    with pytest.raises(ReplyError, match="not an integer"):
        client.execute("INCR", "redis-client-test")

    assert client.execute("PING") == b"PONG"


def test_a_connection_the_server_closed_is_replaced_and_the_command_sent_once(client):
    client.execute("DEL", "redis-client-test")
    own_id = client.execute("CLIENT", "ID")
    # As an idle timeout would: the server drops the connection between two requests.
    RedisClient(settings.REDIS_URL).execute("CLIENT", "KILL", "ID", own_id)

    assert client.execute("INCR", "redis-client-test") == 1
    assert client.execute("CLIENT", "ID") != own_id


def test_an_unreachable_server_is_a_connection_failure():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # free now, and nothing listens there
    client = RedisClient(f"redis://127.0.0.1:{port}/0", socket_connect_timeout=0.2)

    with pytest.raises(ConnectionFailed):
        client.execute("PING")
