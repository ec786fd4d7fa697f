"""Account managers choose a key's kind, scopes and origins: issuing, rotating, editing."""

from __future__ import annotations

import re
from http import HTTPStatus

from apikeys.models import ApiKey
from tests.admin_pages import column, form_data
from tests.apikeys.test_admin import KEYS, api_call, issue, run_action
from tests.assertions import assert_error

PUB_KEY_RE = re.compile(r"petstore_pub_live_[0-9A-Za-z]{33}")
SHELTER = "https://shelter.example"


def pub_keys_in(response) -> set[str]:
    return set(PUB_KEY_RE.findall(response.content.decode()))


def from_shelter(raw: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {raw}", "Origin": SHELTER}


def test_a_manager_issues_a_publishable_key_bound_to_an_origin(
    manager_client, client, make_account
):
    account = make_account()

    _, response = issue(
        manager_client,
        account,
        name="widget",
        kind="publishable",
        scopes=["pets:read"],
        origins=f"{SHELTER}\nhttp://localhost:3000",
    )

    (raw,) = pub_keys_in(response)
    key = ApiKey.objects.get(account=account)
    assert (key.kind, key.scope_list) == ("publishable", ["pets:read"])
    assert key.origin_list == [SHELTER, "http://localhost:3000"]
    assert "Publishable (read-only) key for" in response.content.decode()
    ok = client.get("/v1/pets", headers=from_shelter(raw))
    assert ok.status_code == HTTPStatus.OK
    assert ok["Access-Control-Allow-Origin"] == SHELTER


def test_a_publishable_key_with_a_write_scope_is_a_form_error(manager_client, make_account):
    account = make_account()

    _, response = issue(
        manager_client,
        account,
        kind="publishable",
        scopes=["pets:read", "pets:write"],
        origins=SHELTER,
    )

    assert response.status_code == HTTPStatus.OK
    assert "read-only" in str(response.context["form"].errors["scopes"])
    assert not pub_keys_in(response)
    assert not ApiKey.objects.exists()


def test_a_bad_origin_is_a_form_error(manager_client, make_account):
    _, response = issue(
        manager_client, make_account(), kind="publishable", origins="https://shelter.example/x"
    )

    assert "not a web origin" in str(response.context["form"].errors["origins"])
    assert not ApiKey.objects.exists()


def test_a_secret_key_may_be_issued_with_chosen_scopes(manager_client, make_account):
    account = make_account()

    _, response = issue(manager_client, account, kind="secret", scopes=["pets:read"])

    key = ApiKey.objects.get(account=account)
    assert (key.kind, key.scope_list) == ("secret", ["pets:read"])
    assert "Secret key: keep it on servers; scopes: pets:read." in " ".join(
        response.content.decode().split()
    )


def test_the_key_list_shows_kind_scopes_and_origins(manager_client, make_key):
    make_key(kind="publishable", origins=(SHELTER,))

    page = manager_client.get(KEYS)

    assert column(page, "kind_short") == ["pub"]
    assert column(page, "scope_text") == ["pets:read"]
    assert column(page, "origin_text") == [SHELTER]


def test_a_scope_change_in_the_admin_holds_on_the_very_next_request(
    manager_client, client, api_key, key_row, dog
):
    assert api_call(client, api_key).status_code == HTTPStatus.OK  # cached
    url = f"{KEYS}{key_row.pk}/change/"
    page = manager_client.get(url)

    saved = manager_client.post(url, form_data(page, scopes=["pets:read"]))

    assert saved.status_code == HTTPStatus.FOUND
    refused = client.post(
        "/v1/pets",
        {"name": "Rex", "categoryId": dog.pk},
        content_type="application/json",
        headers={"Authorization": f"Bearer {api_key}"},
    )
    assert_error(refused, HTTPStatus.FORBIDDEN, "forbidden")
    key_row.refresh_from_db()
    assert key_row.scope_list == ["pets:read"]


def test_giving_a_publishable_key_a_write_scope_in_the_admin_is_refused(manager_client, make_key):
    make_key(kind="publishable", origins=(SHELTER,))
    key = ApiKey.objects.get()
    url = f"{KEYS}{key.pk}/change/"
    page = manager_client.get(url)

    response = manager_client.post(url, form_data(page, scopes=["pets:read", "pets:write"]))

    assert response.status_code == HTTPStatus.OK
    assert "read-only" in response.content.decode()
    key.refresh_from_db()
    assert key.scope_list == ["pets:read"]


def test_an_origin_change_in_the_admin_holds_on_the_very_next_request(
    manager_client, client, make_key
):
    raw = make_key(kind="publishable", origins=(SHELTER,))
    assert client.get("/v1/pets", headers=from_shelter(raw)).status_code == HTTPStatus.OK
    key = ApiKey.objects.get()
    url = f"{KEYS}{key.pk}/change/"
    page = manager_client.get(url)

    manager_client.post(url, form_data(page, allowed_origins="https://other.example"))

    assert client.get("/v1/pets", headers=from_shelter(raw)).status_code == HTTPStatus.FORBIDDEN


def confirm_rotation(manager_client, key, **changes):
    page = run_action(manager_client, KEYS, "rotate", [key])
    data = {
        "action": "rotate",
        "_selected_action": [key.pk],
        "confirm": "yes",
        "one_time_token": page.context["one_time_token"],
        "grace_hours": 24,
        **changes,
    }
    return manager_client.post(KEYS, data)


def test_rotation_keeps_kind_scopes_and_origins(manager_client, client, make_key):
    make_key(kind="publishable", origins=(SHELTER,))
    old = ApiKey.objects.get()

    response = confirm_rotation(manager_client, old)

    (raw,) = pub_keys_in(response)
    new = ApiKey.objects.exclude(pk=old.pk).get()
    assert (new.kind, new.scope_list, new.origin_list) == ("publishable", ["pets:read"], [SHELTER])
    assert client.get("/v1/pets", headers=from_shelter(raw)).status_code == HTTPStatus.OK


def test_rotation_may_change_scopes_and_origins(manager_client, make_key):
    make_key(kind="publishable", origins=(SHELTER,))
    old = ApiKey.objects.get()

    confirm_rotation(
        manager_client, old, scopes=["pets:read", "orders:read"], origins="https://new.example"
    )

    new = ApiKey.objects.exclude(pk=old.pk).get()
    assert new.scope_list == ["orders:read", "pets:read"]
    assert new.origin_list == ["https://new.example"]


def test_a_rotation_the_key_cannot_take_rotates_nothing(manager_client, key_row):
    # A secret key made publishable needs an origin: refused, and nothing is issued.
    response = confirm_rotation(manager_client, key_row, kind="publishable")

    assert response.status_code == HTTPStatus.OK
    assert "origin" in str(response.context["form"].errors)
    assert ApiKey.objects.count() == 1
    key_row.refresh_from_db()
    assert key_row.expires_at is None
