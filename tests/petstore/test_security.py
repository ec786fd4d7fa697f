"""What a security review checks: request logs without secrets, CORS, headers, deploy checks."""

from __future__ import annotations

import json
import logging
import os
import secrets
import subprocess
import sys
from http import HTTPStatus
from pathlib import Path

from django.conf import settings

from apikeys import keys
from apikeys.services import apikey_revoke

ROOT = Path(__file__).resolve().parents[2]


def request_lines(records) -> list[dict]:
    return [json.loads(r.getMessage()) for r in records]


def test_each_request_is_one_json_log_line_naming_the_account_not_the_key(
    client, api_key, key_row, request_log
):

    response = client.get(
        "/v1/pets", headers={"Authorization": f"Bearer {api_key}", "X-Request-ID": "trace-42"}
    )

    (line,) = request_lines(request_log)
    assert response["X-Request-ID"] == "trace-42"
    assert line["request_id"] == "trace-42"
    assert (line["method"], line["path"], line["status"]) == ("GET", "/v1/pets", 200)
    assert line["duration_ms"] >= 0
    assert (line["account_id"], line["key_prefix"]) == (key_row.account_id, key_row.prefix)


def test_no_key_ever_reaches_the_logs(client, api_key, key_row, make_key, caplog, request_log):
    caplog.set_level(logging.DEBUG)
    revoked = make_key(name="Old")
    apikey_revoke(api_key=type(key_row).objects.get(digest=keys.digest(revoked)))
    made_up = keys.generate_key()
    bad_checksum = api_key[:-1] + ("A" if api_key[-1] != "A" else "B")

    for key in (api_key, revoked, made_up, bad_checksum, "not-a-key"):
        client.get("/v1/pets", headers={"Authorization": f"Bearer {key}"})

    logged = "\n".join(record.getMessage() for record in [*caplog.records, *request_log])
    assert len(request_lines(request_log)) == 5
    for key in (api_key, revoked, made_up, bad_checksum):
        assert key not in logged
        assert keys.digest(key) not in logged


def test_api_responses_carry_nosniff_and_no_server_version(client, auth):
    response = client.get("/v1/pets", headers=auth)

    assert response["X-Content-Type-Options"] == "nosniff"
    assert "Server" not in response


def test_answers_carry_djangos_security_headers_over_http_and_https(client, auth, settings):
    # Set by Django's SecurityMiddleware, from the settings.
    settings.SECURE_REFERRER_POLICY = "no-referrer, strict-origin"
    expected = {
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer,strict-origin",
        "Cross-Origin-Opener-Policy": "same-origin",
    }
    hsts = f"max-age={settings.SECURE_HSTS_SECONDS}; includeSubDomains; preload"

    plain = client.get("/v1/pets", headers=auth)
    secure = client.get("/v1/pets", headers=auth, secure=True)
    admin = client.get("/admin/login/", secure=True)

    for response in (plain, secure, admin):
        assert {name: response.get(name) for name in expected} == expected
    assert settings.SECURE_HSTS_SECONDS > 0
    assert "Strict-Transport-Security" not in plain
    assert secure["Strict-Transport-Security"] == hsts
    assert admin["Strict-Transport-Security"] == hsts


def test_without_hsts_no_answer_carries_it(client, auth, settings):
    settings.SECURE_HSTS_SECONDS = 0

    response = client.get("/v1/pets", headers=auth, secure=True)

    assert response.status_code == 200
    assert "Strict-Transport-Security" not in response
    assert response["X-Content-Type-Options"] == "nosniff"


def test_cors_is_closed_to_secret_keys_by_default(client, auth):
    # Preflights for reads are answered for any origin (they carry no key: apikeys.cors), but
    # neither a write's preflight nor a secret key's answer is readable from another site.
    write = client.options(
        "/v1/pets",
        headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
    )
    read = client.get("/v1/pets", headers={**auth, "Origin": "https://evil.example"})

    assert "Access-Control-Allow-Origin" not in write
    assert "Access-Control-Allow-Origin" not in read


def test_cors_opens_to_listed_origins_only(client, auth, settings):
    settings.CORS_ALLOWED_ORIGINS = ["https://partner.example"]

    allowed = client.get("/v1/pets", headers={**auth, "Origin": "https://partner.example"})
    other = client.get("/v1/pets", headers={**auth, "Origin": "https://evil.example"})

    assert allowed["Access-Control-Allow-Origin"] == "https://partner.example"
    assert "X-RateLimit-Remaining" in allowed["Access-Control-Expose-Headers"]
    assert "Access-Control-Allow-Origin" not in other
    assert other.status_code == HTTPStatus.OK


def test_the_deploy_check_is_clean_with_production_settings():
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "SECURE_SSL_REDIRECT": "1",
        "ALLOWED_HOSTS": "petstore.example.com",
        "DATABASE_URL": os.environ.get("DATABASE_URL", ""),
        "REDIS_URL": settings.REDIS_URL,
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_api_requests_skip_the_admin_middleware(client, auth):
    api = client.get("/v1/pets", headers=auth)
    admin = client.get("/admin/login/")

    # Sessions, CSRF and clickjacking protection run for the admin's pages only.
    assert "X-Frame-Options" not in api
    assert "Vary" not in api or "Cookie" not in api["Vary"]
    assert admin["X-Frame-Options"] == "DENY"
    assert "csrftoken" in admin.cookies
