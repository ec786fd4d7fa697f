"""Shared fixtures. The suite runs against real PostgreSQL and Redis, never stand-ins."""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from http import HTTPStatus
from typing import Any

import pytest
import time_machine
from django.conf import settings
from django.contrib.auth.models import Group
from django.core.cache import cache
from django.db import connection
from django.test import Client

from apikeys import keys
from apikeys import services as apikey_services
from apikeys.models import Account, ApiKey, Plan
from apikeys.windows import WINDOWS
from pets.models import Category, Pet
from petstore import errors
from tests.events.documented import assert_events_documented

# .ci/services starts the local server, or says what to run where it may not.
START_POSTGRES = "make services"
START_REDIS = 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no'


# The instant a test with the ``clock`` fixture starts at: a Saturday afternoon, 20 s into a minute.
CLOCK_START = datetime(2026, 11, 21, 12, 30, 20, tzinfo=UTC)


class Clock:
    """Every clock the code reads (``time.time``, ``datetime.now``, ``timezone.now``), held
    still at an instant the test chooses and moved only by the test. Redis keeps its own time,
    so expiries set in it are relative, never absolute."""

    def __init__(self, traveller: time_machine.Traveller) -> None:
        self._traveller = traveller

    @property
    def now(self) -> float:
        return time.time()

    @now.setter
    def now(self, timestamp: float) -> None:
        self._traveller.move_to(datetime.fromtimestamp(timestamp, tz=UTC))

    def set(self, moment: datetime) -> None:
        self._traveller.move_to(moment)

    def advance(self, seconds: float) -> None:
        self._traveller.shift(seconds)


@pytest.fixture
def database_down() -> Iterator[None]:
    """Point the connection at a port where nothing listens, as if PostgreSQL had stopped."""
    real_port = connection.settings_dict["PORT"]
    connection.close()
    connection.settings_dict["PORT"] = "9"
    yield
    connection.close()
    connection.settings_dict["PORT"] = real_port


@pytest.fixture
def clock() -> Iterator[Clock]:
    with time_machine.travel(CLOCK_START, tick=False) as traveller:
        yield Clock(traveller)


@pytest.fixture(autouse=True)
def _getpet_before_its_sunset(settings: Any) -> None:
    # getPet answers 410 from its sunset on: unless a test says otherwise, that date is years
    # after the day the suite runs, so that no test depends on the calendar.
    settings.PETSTORE_GETPET_SUNSET_AT = datetime.now(UTC) + timedelta(days=3650)


def _require_services() -> None:
    """Fail the run at once, saying how to fix it, when PostgreSQL or Redis is missing."""
    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.postgresql":
        pytest.exit(
            "The tests need PostgreSQL: run them with `make test`, or set DATABASE_URL to a "
            f"postgres:// URL (now: {database['ENGINE']}).",
            returncode=3,
        )
    import psycopg

    try:
        psycopg.connect(
            host=database["HOST"] or None,
            port=database["PORT"] or None,
            user=database["USER"] or None,
            password=database["PASSWORD"] or None,
            dbname="postgres",
            connect_timeout=3,
        ).close()
    except psycopg.OperationalError as exc:
        pytest.exit(
            f"PostgreSQL is not reachable at {database['HOST']}:{database['PORT']} ({exc}).\n"
            f"Start it with:  {START_POSTGRES}",
            returncode=3,
        )
    if not settings.REDIS_URL:
        pytest.exit("The tests need Redis: run them with `make test`, or set REDIS_URL.", 3)
    import redis

    try:
        redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=3).ping()
    except redis.RedisError as exc:
        pytest.exit(
            f"Redis is not reachable at {settings.REDIS_URL} ({exc}).\nStart it with:  "
            f"{START_REDIS}",
            returncode=3,
        )


def pytest_sessionstart(session: pytest.Session) -> None:
    _require_services()


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    # Rate-limit counters and bans live in Redis: each test starts from none.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _fresh_outage_log() -> None:
    # The process logs an outage once a second: each test's outage starts a line of its own.
    errors.OUTAGE_LOG.forget()


class FeedCheckingClient(Client):
    """Django's test client, which holds every page of ``GET /v1/events`` it receives, in any
    test, to the document's ``Event`` (tests/events/documented.py)."""

    def request(self, **request: Any) -> Any:
        response = super().request(**request)
        if request.get("PATH_INFO") == "/v1/events" and response.status_code == HTTPStatus.OK:
            assert_events_documented(response.json())
        return response


@pytest.fixture
def fresh_petstore_client() -> Iterator[None]:
    """A test that imports a module named ``petstore_client`` (the Python SDK, or a client it
    generates) finds none imported before it and leaves none behind: the two are different
    packages of one name."""

    def forget() -> None:
        for name in [name for name in sys.modules if name.split(".")[0] == "petstore_client"]:
            del sys.modules[name]

    forget()
    yield
    forget()


@pytest.fixture
def client() -> Client:
    return FeedCheckingClient()


@pytest.fixture
def free_plan(db: None) -> Plan:
    return Plan.objects.get(code="free")


# An Enterprise account's limit in each window a test does not name: more than any test sends.
ROOMY_LIMIT = 1_000_000_000


@pytest.fixture
def make_account(db: None) -> Callable[..., Account]:
    """Open an account on a plan; an Enterprise account's limits by window name
    (``per_minute=2``), each window not named roomy (``ROOMY_LIMIT``)."""

    def make(plan: str = "free", name: str = "Shelter app", **limits: Any) -> Account:
        chosen = Plan.objects.get(code=plan)
        if chosen.has_custom_limits:
            limits = {window.per: ROOMY_LIMIT for window in WINDOWS} | limits
        return apikey_services.account_create(name=name, plan=chosen, **limits)

    return make


@pytest.fixture
def make_key(make_account: Callable[..., Account]) -> Callable[..., str]:
    """Issue a key (on a new Free account unless one is given) and return the raw key: a
    secret key with every scope unless told otherwise."""

    def make(
        account: Account | None = None,
        expires_in: timedelta | None = None,
        *,
        kind: str = "secret",
        scopes: list[str] | None = None,
        origins: tuple[str, ...] = (),
        **account_kwargs: Any,
    ) -> str:
        account = account or make_account(**account_kwargs)
        return apikey_services.apikey_issue(
            account=account, expires_in=expires_in, kind=kind, scopes=scopes, origins=origins
        ).raw

    return make


@pytest.fixture
def api_key(make_key: Callable[..., str]) -> str:
    return make_key()


@pytest.fixture
def auth(api_key: str) -> dict[str, str]:
    """Headers for the test client: ``client.get(url, headers=auth)``."""
    return {"Authorization": f"Bearer {api_key}"}


@pytest.fixture
def key_row(api_key: str) -> ApiKey:
    found = ApiKey.objects.for_digest(keys.digest(api_key))
    assert found is not None
    return found


@pytest.fixture
def dog(db: None) -> Category:
    return Category.objects.create(name="Dog", description="Dogs")


@pytest.fixture
def cat(db: None) -> Category:
    return Category.objects.create(name="Cat", description="Cats")


@pytest.fixture
def make_pet(dog: Category) -> Callable[..., Pet]:
    def make(name: str = "Rex", status: str = "available", category: Category | None = None) -> Pet:
        return Pet.objects.create(name=name, status=status, category=category or dog)

    return make


def _staff_member(django_user_model: Any, username: str, group: str) -> Any:
    """A staff user in one of the groups made by petstore's migration (no superuser rights)."""
    user = django_user_model.objects.create_user(username=username, is_staff=True)
    user.groups.add(Group.objects.get(name=group))
    return user


@pytest.fixture
def shelter_staff(db: None, django_user_model: Any) -> Any:
    return _staff_member(django_user_model, "shelter", "Shelter staff")


@pytest.fixture
def account_manager(db: None, django_user_model: Any) -> Any:
    return _staff_member(django_user_model, "manager", "Account managers")


def signed_in(client: Client, user: Any) -> Client:
    """``client`` signed in to the admin as ``user``, with the second factor staff need: a
    confirmed authenticator, the session verified with it (staff.middleware)."""
    from django_otp import DEVICE_ID_SESSION_KEY
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from staff.middleware import VERIFIED_WITH

    client.force_login(user)
    device = TOTPDevice.objects.create(user=user, name="Authenticator app", confirmed=True)
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = device.persistent_id
    session[VERIFIED_WITH] = [device.persistent_id]
    session.save()
    return client


@pytest.fixture
def admin_client(admin_user: Any) -> Client:
    """pytest-django's, with the second factor."""
    return signed_in(Client(), admin_user)


@pytest.fixture
def staff_client(shelter_staff: Any) -> Client:
    """The admin as a shelter administrator sees it."""
    return signed_in(Client(), shelter_staff)


@pytest.fixture
def manager_client(account_manager: Any) -> Client:
    """The admin as an account manager sees it."""
    return signed_in(Client(), account_manager)


@pytest.fixture(autouse=True)
def _fresh_limiter_and_key_cache() -> Iterator[None]:
    from apikeys.keyring import keyring
    from apikeys.lastuse import last_use
    from apikeys.limiter import limiter
    from petstore import redis

    def forget() -> None:
        keyring.clear()
        last_use.clear()
        limiter.reset()
        # Rate-limit counters, bans and tallies live in Redis: each test starts from none.
        client = redis.client()
        if client is not None:
            client.execute("FLUSHDB")

    forget()
    yield
    forget()


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def request_log() -> Iterator[list[logging.LogRecord]]:
    """The request log's records. It has a handler of its own and does not propagate to the
    root logger (settings.LOGGING), so caplog does not see it."""
    logger = logging.getLogger("petstore.requests")
    handler = _Records()
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.INFO)
    yield handler.records
    logger.removeHandler(handler)
    logger.setLevel(level)
