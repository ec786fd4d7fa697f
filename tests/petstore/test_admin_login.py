"""The admin login is limited per client address, answering a clear 429 page, not a crash."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from django.core.cache import caches

LOGIN = "/admin/login/"
LIMITED = "Too many sign-in attempts"
RIGHT = "right horse battery"
WRONG = "wrong"


@pytest.fixture(autouse=True)
def _quick_and_still(settings, clock):
    # A fast hasher, so that the attempts are quick; and the clock held still, so that none of
    # django-ratelimit's windows (which end at any second) closes in the middle of a test.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def staff_user(django_user_model):
    return django_user_model.objects.create_user(username="keeper", password=RIGHT, is_staff=True)


@pytest.fixture
def redis_down(settings):
    settings.REDIS_URL = "redis://127.0.0.1:9/0"  # the discard port: nothing listens there
    memory = caches["ratelimit"].memory  # type: ignore[attr-defined]  # petstore.cache.RedisCache
    memory.clear()
    yield
    memory.clear()


def attempt(client, password: str = WRONG, address: str = "10.0.0.1"):
    return client.post(LOGIN, {"username": "keeper", "password": password}, REMOTE_ADDR=address)


def test_ten_failed_attempts_are_answered_normally(client, staff_user):
    for _ in range(10):
        response = attempt(client)

        assert response.status_code == HTTPStatus.OK
        assert "Please enter the correct username and password" in response.content.decode()


def test_the_eleventh_attempt_from_an_address_gets_a_clear_429_page(client, staff_user):
    for _ in range(10):
        attempt(client)

    response = attempt(client)

    assert response.status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert "admin/login_limited.html" in [t.name for t in response.templates]
    html = response.content.decode()
    assert LIMITED in html
    assert 'href="/admin/login/"' in html


def test_a_limited_address_cannot_sign_in_even_with_the_right_password(
    client, staff_user, settings
):
    settings.PETSTORE_ADMIN_LOGIN_RATE = "3/m"
    for _ in range(3):
        assert attempt(client).status_code == HTTPStatus.OK

    response = attempt(client, password=RIGHT)

    assert response.status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert "_auth_user_id" not in client.session
    assert client.get("/admin/").status_code == HTTPStatus.FOUND  # still sent to the login


def test_another_address_is_not_limited(client, staff_user, settings):
    settings.PETSTORE_ADMIN_LOGIN_RATE = "3/m"
    for _ in range(4):
        attempt(client, address="10.0.0.1")

    failed = attempt(client, address="10.0.0.2")
    signed_in = attempt(client, password=RIGHT, address="10.0.0.2")

    assert attempt(client, address="10.0.0.1").status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert failed.status_code == HTTPStatus.OK
    assert LIMITED not in failed.content.decode()
    assert signed_in.status_code == HTTPStatus.FOUND
    assert client.session["_auth_user_id"] == str(staff_user.pk)


def test_the_login_page_itself_is_not_counted(client, staff_user, settings):
    settings.PETSTORE_ADMIN_LOGIN_RATE = "3/m"
    for _ in range(10):
        assert client.get(LOGIN, REMOTE_ADDR="10.0.0.1").status_code == HTTPStatus.OK

    assert attempt(client).status_code == HTTPStatus.OK


def test_a_limited_address_still_sees_the_login_form(client, staff_user, settings):
    settings.PETSTORE_ADMIN_LOGIN_RATE = "3/m"
    for _ in range(4):
        attempt(client)

    page = client.get(LOGIN, REMOTE_ADDR="10.0.0.1")

    assert page.status_code == HTTPStatus.OK
    assert 'name="password"' in page.content.decode()


def test_the_limit_holds_in_each_process_while_redis_is_down(
    client, staff_user, settings, redis_down
):
    settings.PETSTORE_ADMIN_LOGIN_RATE = "3/m"

    statuses = [attempt(client).status_code for _ in range(4)]

    # As the API's limits do: counted in this process's memory until Redis returns.
    assert statuses == [HTTPStatus.OK] * 3 + [HTTPStatus.TOO_MANY_REQUESTS]
