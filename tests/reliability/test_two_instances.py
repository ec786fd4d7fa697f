"""Two gunicorn instances (2 workers each) on one PostgreSQL and one Redis behave as one."""

from __future__ import annotations

import re
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus
from http.cookiejar import CookieJar

import pytest
from django.contrib.auth.models import User
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken

from apikeys.models import ApiKey
from pets.models import Pet
from tests.reliability.conftest import Instance, wait_for_a_fresh_minute

# The instances see only committed rows.
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def test_a_free_accounts_minute_holds_across_both_instances(two_instances, api_key):
    first, second = two_instances
    wait_for_a_fresh_minute()

    def call(n: int) -> int:
        return (first if n % 2 else second).call("GET", "/v1/categories", api_key).status

    with ThreadPoolExecutor(max_workers=16) as pool:
        statuses = list(pool.map(call, range(100)))

    print(f"\n100 requests over two instances: {statuses.count(200)} admitted")
    assert statuses.count(HTTPStatus.OK) == 60
    assert statuses.count(HTTPStatus.TOO_MANY_REQUESTS) == 40


def test_a_ban_set_through_one_instance_holds_on_the_other(two_instances, api_key):
    first, second = two_instances
    wait_for_a_fresh_minute()
    for n in range(60):
        assert (first if n % 2 else second).call("GET", "/v1/categories", api_key).status == 200

    codes = [first.call("GET", "/v1/categories", api_key).body["code"] for _ in range(10)]
    on_the_other = second.call("GET", "/v1/categories", api_key)

    assert codes == ["rate_limited"] * 9 + ["temporarily_banned"]
    assert on_the_other.status == HTTPStatus.TOO_MANY_REQUESTS
    assert on_the_other.body["code"] == "temporarily_banned"


def _admin_session(
    instance: Instance, username: str, password: str
) -> urllib.request.OpenerDirector:
    """A browser-like session on one instance's admin: cookies, CSRF token, login, and the
    second factor."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))

    def post(path: str, fields: dict[str, object]) -> str:
        page = opener.open(f"{instance.url}{path}", timeout=10).read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token is not None, page[:500]
        data = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": token[1]}, doseq=True)
        return opener.open(f"{instance.url}{path}", data.encode(), timeout=10).read().decode()

    opener.post = post  # type: ignore[attr-defined]
    post("/admin/login/", {"username": username, "password": password, "next": "/admin/"})
    # The second factor: one of the member's recovery codes (staff/).
    device = StaticDevice.objects.create(user=User.objects.get(username=username), name="Codes")
    code = device.token_set.create(token=StaticToken.random_token()).token
    post("/admin/second-factor/verify/", {"code": code})
    return opener


def test_a_key_revoked_through_one_instance_is_refused_by_the_other(two_instances, api_key):
    first, second = two_instances
    User.objects.create_superuser("ops", "ops@example.com", "a-long-password-1")
    # Both have looked the key up (and cached it, in every worker that served it).
    for _ in range(4):
        assert first.call("GET", "/v1/categories", api_key).status == HTTPStatus.OK
        assert second.call("GET", "/v1/categories", api_key).status == HTTPStatus.OK
    key_id = ApiKey.objects.get().pk

    admin = _admin_session(first, "ops", "a-long-password-1")
    page = admin.post(  # type: ignore[attr-defined]
        "/admin/apikeys/apikey/",
        {"action": "revoke", "_selected_action": [key_id], "confirm": "yes", "index": "0"},
    )

    assert "1 key(s) revoked" in page
    for instance in (second, first, second):
        assert instance.call("GET", "/v1/categories", api_key).status == HTTPStatus.UNAUTHORIZED


def test_an_idempotency_key_replays_across_instances(two_instances, api_key, dog):
    first, second = two_instances
    body = {"name": "Rex", "categoryId": dog.pk}
    headers = {"Idempotency-Key": "across-instances"}

    created = first.call("POST", "/v1/pets", api_key, body, headers)
    replayed = second.call("POST", "/v1/pets", api_key, body, headers)

    assert created.status == replayed.status == HTTPStatus.CREATED
    # Security headers as gunicorn serves them: nosniff, and no server version to look up.
    assert created.headers["X-Content-Type-Options"] == "nosniff"
    assert not any(ch.isdigit() for ch in created.headers.get("Server", ""))
    assert replayed.body == created.body
    assert replayed.headers["Idempotent-Replayed"] == "true"
    assert Pet.objects.count() == 1


def test_a_scope_change_made_through_one_instances_admin_holds_on_the_other(
    two_instances, api_key, dog
):
    first, second = two_instances
    User.objects.create_superuser("scopes", "scopes@example.com", "a-long-password-2")
    # Both have the key cached, in every worker that served it.
    for _ in range(4):
        assert first.call("GET", "/v1/pets", api_key).status == HTTPStatus.OK
        assert second.call("GET", "/v1/pets", api_key).status == HTTPStatus.OK
    key = ApiKey.objects.get()

    admin = _admin_session(first, "scopes", "a-long-password-2")
    admin.post(  # type: ignore[attr-defined]
        f"/admin/apikeys/apikey/{key.pk}/change/",
        {
            "name": key.name,
            "expires_at_0": "",
            "expires_at_1": "",
            "scopes": ["pets:read"],
            "allowed_origins": "",
            "_save": "Save",
        },
    )

    key.refresh_from_db()
    assert key.scope_list == ["pets:read"]
    for instance in (second, first, second):
        refused = instance.call("POST", "/v1/pets", api_key, {"name": "Rex", "categoryId": dog.pk})
        assert refused.status == HTTPStatus.FORBIDDEN
        assert refused.body["code"] == "forbidden"
        assert instance.call("GET", "/v1/pets", api_key).status == HTTPStatus.OK
    assert not Pet.objects.exists()
