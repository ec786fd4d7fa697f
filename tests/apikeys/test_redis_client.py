"""The limiter's own Redis connection, against the real server."""

from __future__ import annotations

import socket
import struct
import threading

import pytest
from django.conf import settings

from petstore.redis import ConnectionFailed, RedisClient, ReplyError


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


def test_a_round_trip_waits_in_the_kernel_with_the_configured_timeout():
    client = RedisClient(settings.REDIS_URL, socket_timeout=0.25)
    client.execute("PING")
    sock = client._socket
    assert sock is not None

    # Blocking (no poll before each send and receive), bounded by the kernel's timeouts.
    assert sock.gettimeout() is None
    for option in (socket.SO_RCVTIMEO, socket.SO_SNDTIMEO):
        whole, micro = struct.unpack("ll", sock.getsockopt(socket.SOL_SOCKET, option, 16))
        # The kernel rounds a timeout up to its clock's tick (a few milliseconds).
        assert 0.25 <= whole + micro / 1_000_000 < 0.3
    client.close()


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


def test_a_server_that_stops_answering_is_a_timeout():
    # A real listening socket that accepts (into the kernel's backlog) and never answers: a
    # Redis that hangs. The client must give up after its socket_timeout, not wait for ever.
    with socket.create_server(("127.0.0.1", 0)) as silent:
        port = silent.getsockname()[1]
        stuck = RedisClient(f"redis://127.0.0.1:{port}/0", socket_timeout=0.2)
        failures: list[BaseException] = []

        def call() -> None:
            try:
                stuck.execute("PING")
            except BaseException as exc:  # recorded for the assertions below
                failures.append(exc)

        caller = threading.Thread(target=call, daemon=True)
        caller.start()
        caller.join(timeout=10)  # a bound on the test, far above the 0.2 s it should take

        assert not caller.is_alive(), "the call never timed out"
        assert len(failures) == 1
        assert isinstance(failures[0], ConnectionFailed)
        assert "timed out after 0.2 s" in str(failures[0])
