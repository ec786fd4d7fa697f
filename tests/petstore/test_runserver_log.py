"""`make run`'s server logs each request once: the request log's JSON line, not also
runserver's own line beside it; and Django's errors once, not by its handler and the root's."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from http import HTTPStatus
from pathlib import Path

import pytest

from tests.embedded import ROOT, embedded_env
from tests.network import free_port
from tests.waiting import wait_until

HTTPS_HINT = "over HTTPS, but it only supports HTTP"


def test_runserver_logs_a_request_once_and_still_says_what_else_it_has_to_say(tmp_path: Path):
    env = {**embedded_env(tmp_path / "db.sqlite3"), "REQUEST_LOG": "1"}
    port = free_port()
    log = tmp_path / "stderr"
    with log.open("w") as stderr:
        server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
    try:
        wait_until(lambda: answers(port) or server.poll() is not None, "runserver to answer")
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/v1/pets", headers={"X-Request-ID": "newcomer-1"}
        )
        with pytest.raises(urllib.error.HTTPError) as refused:  # no key: logged like any answer
            urllib.request.urlopen(request, timeout=30)
        assert refused.value.code == HTTPStatus.UNAUTHORIZED
        # A Host that is not allowed, which Django logs with its traceback.
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(
                urllib.request.Request(
                    f"http://127.0.0.1:{port}/admin/", headers={"Host": "elsewhere.example"}
                ),
                timeout=30,
            )
        assert refused.value.code == HTTPStatus.BAD_REQUEST
        # A TLS handshake, which runserver answers with a line of its own, written after it
        # has finished with the request above.
        with socket.create_connection(("127.0.0.1", port), timeout=30) as tls:
            tls.sendall(b"\x16\x03\x01\x00\x05hello\r\n\r\n")
            tls.recv(1024)
        wait_until(lambda: HTTPS_HINT in log.read_text(), "runserver's HTTPS hint")
    finally:
        server.terminate()
        server.wait(timeout=15)

    written = log.read_text().splitlines()
    lines = [line for line in written if "/v1/pets" in line]
    assert len(lines) == 1, lines
    assert json.loads(lines[0])["request_id"] == "newcomer-1"
    assert sum(line.startswith("Traceback") for line in written) == 1, written


def answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
            return response.status == HTTPStatus.OK
    except OSError:
        return False
