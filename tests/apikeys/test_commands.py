"""manage.py createapikey and revokeapikey."""

from __future__ import annotations

from datetime import timedelta
from http import HTTPStatus
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from apikeys import keys
from apikeys.models import Account, ApiKey
from apikeys.windows import WINDOWS

pytestmark = pytest.mark.django_db


def create_key(*args: str) -> tuple[str, str]:
    """Run createapikey; return its whole output and the key on its last line."""
    out = StringIO()
    call_command("createapikey", *args, stdout=out)
    output = out.getvalue()
    return output, output.strip().splitlines()[-1]


def bearer(raw: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {raw}"}


def per_window(**chosen: int) -> tuple[list[str], dict[str, int]]:
    """The flags of an Enterprise limit for every window, ``chosen`` by name and the others
    roomy, and the limits they give by name."""
    limits = {w.name: chosen.get(w.name, 1_000_000) for w in WINDOWS}
    return [
        part for name, limit in limits.items() for part in (f"--per-{name}", str(limit))
    ], limits


def test_it_prints_a_working_key_on_the_last_line(client):
    _, raw = create_key("--plan", "free")

    assert keys.is_well_formed(raw)
    response = client.get("/v1/pets", headers=bearer(raw))
    assert response.status_code == HTTPStatus.OK


def test_it_makes_a_new_account_on_the_plan(client):
    _, raw = create_key("--plan", "pro", "--name", "Partner site")

    api_key = ApiKey.objects.for_digest(keys.digest(raw))
    assert api_key is not None
    assert api_key.name == "Partner site"
    assert api_key.account.name == "Partner site"
    assert api_key.account.plan.code == "pro"
    assert Account.objects.count() == 1


def test_it_prints_the_key_only_once(client):
    output, raw = create_key("--plan", "free")

    assert output.count(raw) == 1
    assert keys.display_prefix(raw) in output.splitlines()[0]


def test_it_issues_a_key_for_an_existing_account_by_name(make_account):
    account = make_account(name="Happy Paws")

    _, raw = create_key("--plan", "free", "--account", "Happy Paws")

    api_key = ApiKey.objects.for_digest(keys.digest(raw))
    assert api_key is not None
    assert api_key.account == account
    assert Account.objects.count() == 1


def test_it_issues_a_key_for_an_existing_account_by_id(make_account):
    account = make_account(name="Happy Paws")

    _, raw = create_key("--plan", "free", "--account", str(account.pk))

    api_key = ApiKey.objects.for_digest(keys.digest(raw))
    assert api_key is not None
    assert api_key.account == account


def test_it_refuses_an_unknown_account():
    with pytest.raises(CommandError, match="No account"):
        create_key("--plan", "free", "--account", "Nobody")

    assert ApiKey.objects.count() == 0


def test_it_sets_enterprise_limits(client):
    flags, limits = per_window(minute=500, day=20000)
    _, raw = create_key("--plan", "enterprise", *flags)

    api_key = ApiKey.objects.for_digest(keys.digest(raw))
    assert api_key is not None
    account = api_key.account
    assert account.plan.code == "enterprise"
    assert {w.name: getattr(account, w.custom_field) for w in WINDOWS} == limits
    assert account.limits.by_name() == limits
    assert (account.limits.per_minute, account.limits.per_day) == (500, 20000)
    assert client.get("/v1/pets", headers=bearer(raw)).status_code == HTTPStatus.OK


def test_it_moves_an_existing_account_to_enterprise_with_its_limits(make_account):
    account = make_account(name="Big Shelter")

    flags, _ = per_window(minute=9, day=99)
    create_key("--plan", "enterprise", "--account", "Big Shelter", *flags)

    account.refresh_from_db()
    assert account.plan.code == "enterprise"
    assert (account.limits.per_minute, account.limits.per_day) == (9, 99)


def all_but(name: str) -> tuple[str, ...]:
    """Every window's flag but ``name``'s."""
    flags, _ = per_window()
    at = flags.index(f"--per-{name}")
    return (*flags[:at], *flags[at + 2 :])


@pytest.mark.parametrize(
    "limits", [(), *(all_but(w.name) for w in WINDOWS), tuple(per_window(minute=0)[0])]
)
def test_it_refuses_enterprise_without_every_limit(limits):
    with pytest.raises(CommandError):
        create_key("--plan", "enterprise", *limits)

    assert Account.objects.count() == 0
    assert ApiKey.objects.count() == 0


def test_it_refuses_custom_limits_on_another_plan():
    with pytest.raises(CommandError, match="enterprise"):
        create_key("--plan", "free", "--per-minute", "500", "--per-day", "20000")

    assert ApiKey.objects.count() == 0


def test_it_sets_an_expiry(client):
    _, raw = create_key("--plan", "free", "--expires-in-days", "30")

    api_key = ApiKey.objects.for_digest(keys.digest(raw))
    assert api_key is not None
    assert api_key.expires_at is not None
    expected = timezone.now() + timedelta(days=30)
    assert abs(api_key.expires_at - expected) < timedelta(minutes=1)


@pytest.mark.parametrize("days", ["0", "3651", "10000000"])
def test_it_refuses_an_expiry_out_of_range(days):
    with pytest.raises(CommandError, match="between 1 and 3650"):
        create_key("--plan", "free", "--expires-in-days", days)

    assert ApiKey.objects.count() == 0


def test_a_key_without_expiry_never_expires():
    _, raw = create_key("--plan", "free")

    api_key = ApiKey.objects.for_digest(keys.digest(raw))
    assert api_key is not None
    assert api_key.expires_at is None


@pytest.mark.parametrize("days", ["0", "-1"])
def test_it_refuses_an_expiry_that_is_not_in_the_future(days):
    with pytest.raises(CommandError):
        create_key("--plan", "free", "--expires-in-days", days)

    assert ApiKey.objects.count() == 0


def test_it_revokes_a_key_named_in_full(client):
    _, raw = create_key("--plan", "free")
    assert client.get("/v1/pets", headers=bearer(raw)).status_code == HTTPStatus.OK

    out = StringIO()
    call_command("revokeapikey", raw, stdout=out)

    assert "Revoked" in out.getvalue()
    assert raw not in out.getvalue()
    assert client.get("/v1/pets", headers=bearer(raw)).status_code == HTTPStatus.UNAUTHORIZED


def test_it_revokes_a_key_named_by_its_display_prefix(client):
    _, raw = create_key("--plan", "free")
    _, other = create_key("--plan", "free")

    call_command("revokeapikey", keys.display_prefix(raw), stdout=StringIO())

    assert client.get("/v1/pets", headers=bearer(raw)).status_code == HTTPStatus.UNAUTHORIZED
    assert client.get("/v1/pets", headers=bearer(other)).status_code == HTTPStatus.OK


def test_revoking_twice_changes_nothing():
    _, raw = create_key("--plan", "free")
    call_command("revokeapikey", raw, stdout=StringIO())
    api_key = ApiKey.objects.get()
    revoked_at = api_key.revoked_at

    out = StringIO()
    call_command("revokeapikey", raw, stdout=out)

    assert "already revoked" in out.getvalue()
    api_key.refresh_from_db()
    assert api_key.revoked_at == revoked_at


def test_it_refuses_to_revoke_an_unknown_key():
    create_key("--plan", "free")

    with pytest.raises(CommandError, match="No API key"):
        call_command("revokeapikey", keys.generate_key(), stdout=StringIO())

    assert ApiKey.objects.get().revoked_at is None


def test_it_issues_a_key_with_the_scopes_given(client):
    output, raw = create_key("--plan", "free", "--scopes", "pets:read,orders:read")

    api_key = ApiKey.objects.for_digest(keys.digest(raw))
    assert api_key is not None
    assert api_key.scope_list == ["orders:read", "pets:read"]
    assert "scopes orders:read pets:read" in output
    assert client.get("/v1/pets", headers=bearer(raw)).status_code == HTTPStatus.OK


def test_it_takes_repeated_scopes(client):
    _, raw = create_key("--plan", "free", "--scopes", "pets:read", "--scopes", "pets:write")

    api_key = ApiKey.objects.for_digest(keys.digest(raw))
    assert api_key is not None
    assert api_key.scope_list == ["pets:read", "pets:write"]


def test_it_issues_a_publishable_key_bound_to_origins(client):
    _, raw = create_key(
        "--plan", "free", "--publishable", "--origin", "https://a.example",
        "--origin", "https://B.example:443",
    )  # fmt: skip

    assert raw.startswith("petstore_pub_live_")
    api_key = ApiKey.objects.for_digest(keys.digest(raw))
    assert api_key is not None
    assert (api_key.kind, api_key.scope_list) == ("publishable", ["pets:read"])
    assert api_key.origin_list == ["https://a.example", "https://b.example"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--scopes", "pets:read,pets:fly"], "Unknown scopes: pets:fly"),
        (["--publishable"], "at least one web origin"),
        (["--publishable", "--origin", "https://a.example/x"], "not a web origin"),
        (["--publishable", "--origin", "https://a.example", "--scopes", "pets:write"], "read-only"),
        (["--origin", "https://a.example"], "Only publishable keys"),
    ],
)
def test_it_refuses_scopes_or_origins_the_key_cannot_have(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("createapikey", "--plan", "free", *args, stdout=StringIO())

    assert not ApiKey.objects.exists()
    assert not Account.objects.exists()
