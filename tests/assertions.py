"""Assertions shared by the test modules: the one Error body every failure must have."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpResponse


def assert_error(response: HttpResponse, status: int, code: str) -> dict[str, Any]:
    """The response is ``status`` with an Error body ``{code, message, status}`` as JSON.

    Validation errors add ``errors``; nothing else may appear. Returns the body.
    """
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = json.loads(response.content)
    expected_keys = {"code", "message", "status"}
    if code == "validation_error":
        expected_keys.add("errors")
    assert set(body) == expected_keys, body
    assert body["code"] == code
    assert body["status"] == status
    assert isinstance(body["message"], str)
    assert body["message"]
    return body


def assert_validation_error(response: HttpResponse, *fields: str) -> dict[str, list[str]]:
    """A 400 ``validation_error`` whose ``errors`` name exactly ``fields``."""
    body = assert_error(response, 400, "validation_error")
    errors = body["errors"]
    assert set(errors) == set(fields), errors
    for messages in errors.values():
        assert messages
        assert all(isinstance(message, str) and message for message in messages)
    return errors
