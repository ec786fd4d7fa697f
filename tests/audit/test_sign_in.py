"""Staff sign-ins and failed sign-ins in the trail, with the address they came from."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.audit.conftest import only

pytestmark = pytest.mark.django_db

ADDRESS = "203.0.113.99"


@pytest.fixture
def manager(account_manager):
    account_manager.set_password("correct horse battery")
    account_manager.save()
    return account_manager


def sign_in(password: str) -> None:
    Client(REMOTE_ADDR=ADDRESS).post(
        "/admin/login/?next=/admin/", {"username": "manager", "password": password}
    )


def test_a_sign_in_is_recorded(manager):
    sign_in("correct horse battery")

    entry = only("staff.signed_in")
    assert (entry.actor, entry.address) == ("manager", ADDRESS)
    assert (entry.target_type, entry.target_id, entry.target_repr) == (
        "auth.user",
        str(manager.pk),
        "manager",
    )


def test_a_failed_sign_in_is_recorded_with_the_name_tried(manager):
    sign_in("wrong horse")

    entry = only("staff.sign_in_failed")
    assert (entry.actor, entry.address, entry.target_id) == ("manager", ADDRESS, str(manager.pk))
    assert "wrong horse" not in str(entry.changes)


def test_a_failed_sign_in_under_an_unknown_name_is_recorded(db):
    Client(REMOTE_ADDR=ADDRESS).post("/admin/login/", {"username": "mallory", "password": "x"})

    entry = only("staff.sign_in_failed")
    assert (entry.actor, entry.address) == ("mallory", ADDRESS)
    assert (entry.target_type, entry.target_id, entry.target_repr) == ("auth.user", "", "mallory")
