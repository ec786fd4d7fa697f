"""The admin's sign-in limit on real gunicorn instances sharing Redis: it holds across them, and
a web worker that has signed someone in has still not imported redis-py."""

from __future__ import annotations

import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from http import HTTPStatus
from http.cookiejar import CookieJar
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django_ratelimit.core import _get_window

from tests.reliability.conftest import Instance, start_instance

# The instances see only committed rows.
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

LOGIN = "/admin/login/"
LIMITED = "Too many sign-in attempts"
RIGHT = "a-long-password-3"

# A gunicorn server hook, for these instances only: after each request, the worker writes the
# names of the modules it has loaded to a file of its own (whole, so that no reader sees half).
LIST_MODULES = """
import os
import sys

def post_request(worker, req, environ, resp):
    path = os.path.join(os.environ["MODULES_DIR"], f"{os.getpid()}.modules")
    with open(path + ".new", "w") as listing:
        listing.write("\\n".join(sorted(sys.modules)))
    os.replace(path + ".new", path)
"""


@pytest.fixture(scope="module")
def modules_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("modules")


@pytest.fixture(scope="module")
def two_instances(
    django_db_setup: None, django_db_blocker, modules_dir: Path
) -> Iterator[tuple[Instance, Instance]]:
    hook = modules_dir / "hook.py"
    hook.write_text(LIST_MODULES)
    with pytest.MonkeyPatch.context() as patch, django_db_blocker.unblock():
        patch.setenv("MODULES_DIR", str(modules_dir))
        patch.setenv("GUNICORN_CMD_ARGS", f"--config {hook}")
        # One worker each: a worker answers its next request only once the hook of its last
        # has run.
        first, second = start_instance(workers=1), start_instance(workers=1)
    yield first, second
    for instance in (first, second):
        instance.process.terminate()
        instance.process.wait(timeout=15)


def wait_for_a_fresh_window(address: str, seconds_needed: int = 30) -> None:
    """django-ratelimit's minute for an address ends at a second of its own: start where all the
    attempts fit in one, with room to spare: each attempt hashes a password as production does,
    slowly on a loaded machine."""
    ends = _get_window(address, 60)
    if ends - time.time() < seconds_needed:
        time.sleep(ends + 1 - time.time())


class Browser:
    """One person's cookies (shared by both instances, on one host), CSRF token and sign-in."""

    def __init__(self) -> None:
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))

    def sign_in(self, instance: Instance, password: str) -> tuple[int, str, str]:
        """The answer's status, text and address, after any redirects."""
        page = self.opener.open(f"{instance.url}{LOGIN}", timeout=10).read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token is not None, page[:500]
        fields = {
            "username": "keeper",
            "password": password,
            "next": "/admin/",
            "csrfmiddlewaretoken": token[1],
        }
        data = urllib.parse.urlencode(fields).encode()
        try:
            with self.opener.open(f"{instance.url}{LOGIN}", data, timeout=10) as answer:
                return answer.status, answer.read().decode(), answer.url
        except urllib.error.HTTPError as refusal:
            return refusal.code, refusal.read().decode(), refusal.url


def test_the_eleventh_attempt_is_refused_across_two_instances(two_instances):
    User.objects.create_user("keeper", password=RIGHT, is_staff=True)
    browser = Browser()
    wait_for_a_fresh_window("127.0.0.1")

    answers = [browser.sign_in(two_instances[n % 2], "wrong") for n in range(11)]

    for status, text, _ in answers[:10]:
        assert status == HTTPStatus.OK
        assert "Please enter the correct username and password" in text
    status, text, _ = answers[10]
    assert status == HTTPStatus.TOO_MANY_REQUESTS
    assert LIMITED in text


def test_a_worker_that_signed_someone_in_has_not_imported_redis_py(two_instances, modules_dir):
    """Asked of the gunicorn workers themselves, with production settings (DEBUG off, REDIS_URL
    set), after a real sign-in over HTTP that the limit counted in Redis: a server hook of these
    instances' own lists the worker's modules after every request it serves. redis-py is pure
    Python, so only the interpreter's module table can tell."""
    User.objects.create_user("keeper", password=RIGHT, is_staff=True)
    for listing in modules_dir.glob("*.modules"):
        listing.unlink()

    status, _, landed_on = Browser().sign_in(two_instances[0], RIGHT)
    two_instances[0].call("GET", "/healthz")  # the sign-in's last request has been listed

    assert status == HTTPStatus.OK
    assert not landed_on.endswith(LOGIN)  # signed in: sent on from the sign-in page
    listings = [path.read_text().split() for path in modules_dir.glob("*.modules")]
    assert listings
    for loaded in listings:
        assert "django_ratelimit.core" in loaded
        assert "petstore.cache" in loaded
        assert [name for name in loaded if name == "redis" or name.startswith("redis.")] == []
