"""``ErrorCode`` is the one list of the codes an Error body carries: the service names its codes
from it, nginx and gunicorn's worker write theirs out, and the document and the README show
exactly that list."""

from __future__ import annotations

import ast
import re
from http import HTTPStatus
from pathlib import Path

from petstore.errors import ErrorCode

ROOT = Path(__file__).resolve().parents[2]
CODES = [code.value for code in ErrorCode]
APPS = ("apikeys", "audit", "events", "petstore", "pets", "staff", "store", "webhooks")


def named_by_the_service() -> set[str]:
    """The codes the service's code names (``ErrorCode.NOT_FOUND``), and any written out as an
    exception's ``default_code``."""
    found = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Attribute) and getattr(node.value, "id", "") == "ErrorCode":
                    found.add(getattr(ErrorCode, node.attr).value)
                elif (
                    isinstance(node, ast.Assign)
                    and [getattr(target, "id", "") for target in node.targets] == ["default_code"]
                    and isinstance(node.value, ast.Constant)
                ):
                    found.add(node.value.value)
    return found


def written_by_the_worker() -> set[str]:
    """deploy/worker.py pairs each refusal's status with its code: ``(414, "uri_too_long")``."""
    found = set()
    for node in ast.walk(ast.parse((ROOT / "deploy" / "worker.py").read_text())):
        if isinstance(node, ast.Tuple):
            values = [element.value for element in node.elts if isinstance(element, ast.Constant)]
            if any(isinstance(value, int) and 400 <= value < 600 for value in values):
                found |= {value for value in values if isinstance(value, str)}
    return found


def written_by_nginx() -> set[str]:
    return set(re.findall(r'"code":"(\w+)"', (ROOT / "deploy" / "nginx.conf").read_text()))


def listed_in_the_readme() -> list[str]:
    """The codes of the README's paragraph on errors, from its "Codes" on."""
    readme = (ROOT / "README.md").read_text()
    paragraph = readme[readme.index("**Errors**") :].split("\n\n", 1)[0]
    codes = paragraph[paragraph.index("Codes (`ErrorCode`)") :]
    return [name for name in re.findall(r"`([^`]+)`", codes) if re.fullmatch(r"[a-z_]+", name)]


def test_each_layer_sends_only_error_codes():
    service, worker, nginx = named_by_the_service(), written_by_the_worker(), written_by_nginx()

    assert {"not_found", "rate_limited", "idempotency_key_reused"} <= service
    assert {"malformed_request", "uri_too_long", "expectation_failed"} <= worker
    assert {"bad_gateway", "gateway_timeout", "internal_error"} <= nginx
    for layer in (service, worker, nginx):
        assert layer <= set(CODES)


def test_every_error_code_is_sent_by_some_layer():
    sent = named_by_the_service() | written_by_the_worker() | written_by_nginx()

    assert set(CODES) - sent == set()


def test_the_document_lists_the_error_codes(client, db):
    schemas = client.get("/v1/openapi.json").json()["components"]["schemas"]

    assert schemas["Error"]["properties"]["code"] == {"$ref": "#/components/schemas/ErrorCode"}
    assert schemas["ErrorCode"]["enum"] == CODES


def test_the_readme_lists_the_error_codes():
    listed = listed_in_the_readme()

    assert sorted(listed) == sorted(CODES)
    assert len(listed) == len(set(listed))


def test_errors_answered_over_http_carry_codes_of_the_document(client, db, make_key):
    enum = client.get("/v1/openapi.json").json()["components"]["schemas"]["ErrorCode"]["enum"]
    auth = {"Authorization": f"Bearer {make_key()}"}
    answers = [
        client.get("/v1/pets", {"limit": "0"}, headers=auth),
        client.get("/v1/pets"),
        client.get("/v1/pets/999999", headers=auth),
        client.get("/v1/no-such-path", headers=auth),
        client.put("/v1/pets", headers=auth),
        client.post("/v1/pets", "name=Rex", content_type="text/plain", headers=auth),
    ]

    assert [answer.status_code for answer in answers] == [
        HTTPStatus.BAD_REQUEST,
        HTTPStatus.UNAUTHORIZED,
        HTTPStatus.NOT_FOUND,
        HTTPStatus.NOT_FOUND,
        HTTPStatus.METHOD_NOT_ALLOWED,
        HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
    ]
    assert all(answer.json()["code"] in enum for answer in answers)
