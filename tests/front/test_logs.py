"""No key in any log: nginx's access and error logs, gunicorn's, the service's request log."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus

import pytest

from deploy.serve import Front
from tests.front.conftest import assert_front_error, send_raw
from tests.waiting import wait_until

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def test_a_forgotten_colon_leaves_no_key_in_any_log(front: Front, make_key: Callable[..., str]):
    key = make_key()
    head = b"GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n"

    forgotten = send_raw(front, head + b"Authorization Bearer " + key.encode() + b"\r\n\r\n")
    # The same key, well sent, so that the logs have seen it go through.
    well_sent = send_raw(front, head + b"Authorization: Bearer " + key.encode() + b"\r\n\r\n")
    # … and in a header value gunicorn refuses (a control character after it).
    refused = send_raw(front, head + b"Authorization: Bearer " + key.encode() + b"\x01\r\n\r\n")

    assert_front_error(forgotten, 400, "malformed_request")
    assert well_sent is not None
    assert well_sent.status == HTTPStatus.OK
    assert_front_error(refused, 400, "malformed_request")
    # A process writes its line once it has answered: read the logs when they hold these
    # requests' lines, known by their ids.
    ids = [r.headers["x-request-id"].encode() for r in (forgotten, well_sent, refused) if r]
    lines = {
        "access.log": ids,
        "gunicorn.log": [ids[1], b"Refused a malformed request: InvalidHeader"],
    }
    wait_until(lambda: _hold(front, lines), "the logs to hold these requests' lines")
    logs = sorted(path for path in (front.run_dir / "logs").iterdir() if path.is_file())
    assert {path.name for path in logs} >= {"access.log", "error.log", "gunicorn.log"}
    text = {path.name: path.read_bytes() for path in logs}
    # The logs are live: they hold these requests (the service's own line names the key's
    # display prefix, never the key).
    assert b'"status":400' in text["access.log"]
    assert b'"request_id"' in text["gunicorn.log"]  # our request log: one JSON line each
    assert b"Refused a malformed request: InvalidHeader" in text["gunicorn.log"]
    for name, content in text.items():
        assert key.encode() not in content, f"the key is in {name}"
        assert key[len("petstore_live_") :].encode() not in content, f"the key is in {name}"


def _hold(front: Front, lines: dict[str, list[bytes]]) -> bool:
    logs = front.run_dir / "logs"
    for name, wanted in lines.items():
        written = (logs / name).read_bytes() if (logs / name).exists() else b""
        if not all(line in written for line in wanted):
            return False
    return True
