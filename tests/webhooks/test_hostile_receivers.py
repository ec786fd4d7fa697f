"""Whatever a receiver answers, the worker's delivery task records the attempt, with its status
or why there was none, schedules what follows, and never raises: receivers on loopback answer
the bytes Hypothesis chooses (binary and invalid UTF-8 bodies, odd and repeated headers, every
form of Retry-After, interim statuses, answers cut short, trickled or never finished), and the
task runs in this process against PostgreSQL, as a worker runs it."""

from __future__ import annotations

import string
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from deploy.workers import start_workers, stop_workers
from events.models import Event
from tests.waiting import wait_until
from tests.webhooks.conftest import wait_for_a_worker, worker_env
from tests.webhooks.raw_receiver import Answer, raw_receiver
from tests.webhooks.test_update import send, subscribe
from webhooks import answers, services, tasks
from webhooks.models import RESPONSE_CHARS, AttemptError, Delivery, DeliveryState, Endpoint

# The answer's time, in these tests and the workers' (tests/webhooks/conftest.py).
TIMEOUT = 1
# A trickle's pause between its first bytes: each far within the timeout, together past it.
TRICKLE = (0.3, 5)


@pytest.fixture(autouse=True)
def _workers_settings(settings):
    settings.PETSTORE_WEBHOOK_ALLOW_PRIVATE = True  # the receiver is on loopback
    settings.PETSTORE_WEBHOOK_TIMEOUT_SECONDS = TIMEOUT
    settings.PETSTORE_WEBHOOK_CONNECT_TIMEOUT_SECONDS = TIMEOUT
    settings.PETSTORE_WEBHOOK_RETRY_SECONDS = [60, 300, 1800]
    settings.PETSTORE_WEBHOOK_PAUSE_AFTER = 5


@dataclass(frozen=True)
class Case:
    """An answer, as the receiver sends it."""

    status: int
    reason: bytes
    headers: tuple[tuple[bytes, bytes], ...]
    body: bytes
    # length, chunked, until_close; cut_short (a Content-Length past the end), two_lengths;
    # garbage (the body is the whole answer, not HTTP at all)
    framing: str = "length"
    timing: str = "at_once"  # at_once, trickle, hang (the head never ends)
    odd_head: str = ""  # huge (a header line past http.client's limit), many (past 100)

    def head(self) -> bytes:
        lines = [b"HTTP/1.1 %d %s" % (self.status, self.reason)]
        lines += [name + b": " + value for name, value in self.headers]
        if self.framing in ("length", "cut_short", "two_lengths"):
            extra = 1 + len(self.body) if self.framing == "cut_short" else 0
            lines.append(b"Content-Length: %d" % (len(self.body) + extra))
        if self.framing == "two_lengths":
            lines.append(b"Content-Length: %d" % (len(self.body) + 1))
        if self.framing == "chunked":
            lines.append(b"Transfer-Encoding: chunked")
        if self.odd_head == "huge":
            lines.append(b"X-Huge: " + b"h" * 70_000)
        if self.odd_head == "many":
            lines += [b"X-Many: %d" % n for n in range(120)]
        return b"\r\n".join(lines) + b"\r\n\r\n"

    def raw(self) -> bytes:
        if self.framing == "garbage":
            return self.body
        if self.framing != "chunked":
            return self.head() + self.body
        half = len(self.body) // 2
        parts = (self.body[:half], self.body[half:])
        chunks = b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in parts if part)
        return self.head() + chunks + b"0\r\n\r\n"

    def answer(self) -> Answer:
        raw = self.raw()
        if self.timing == "trickle":
            pause, count = TRICKLE
            return Answer((*(raw[n : n + 1] for n in range(count)), raw[count:]), pause)
        if self.timing == "hang":  # all but the blank line that would end the head
            return Answer((raw if self.framing == "garbage" else self.head()[:-2],), hold=True)
        return Answer.whole(raw)

    def expected(self) -> tuple[int | None, str] | None:
        """The status and kind of error the attempt must be recorded with, where HTTP says
        what they are; None where only the invariants can be checked."""
        if self.framing == "garbage":
            return None
        if self.timing == "trickle":  # its first bytes alone take longer than the timeout
            return (None, AttemptError.TIMEOUT)
        if self.odd_head:  # refused as soon as it has come, ended or not
            return (None, AttemptError.CONNECTION)
        if self.timing == "hang":
            return (None, AttemptError.TIMEOUT)
        if self.framing == "two_lengths":
            return (None, AttemptError.CONNECTION)
        if self.status == 100:  # http.client reads past it, to whatever the body holds
            return None
        if self.framing == "chunked" and not self.has_body:  # chunks where none may be
            return None
        if self.framing == "cut_short" and self.has_body and len(self.body) <= RESPONSE_CHARS:
            return (None, AttemptError.CONNECTION)  # the end came before what was kept
        if 200 <= self.status < 300:
            return (self.status, "")
        redirect = 300 <= self.status < 400
        return (self.status, AttemptError.REDIRECT if redirect else AttemptError.STATUS)

    @property
    def has_body(self) -> bool:
        return self.status >= 200 and self.status not in (204, 304)

    def retry_after(self) -> str | None:
        values = [value for name, value in self.headers if name == b"Retry-After"]
        return values[0].decode("latin-1") if len(values) == 1 else None


ODD_RETRY_AFTERS = [
    b"\xb2",  # "²" in Latin-1, as http.client reads it: str.isdigit() says yes
    "²".encode(),
    b"-1",
    b"1e309",
    b"",
    b"  ",
    b"1.5",
    b"+5",
    b"0",
    b"120",
    b"9" * 5000,
    b"\x00",
    b"\xff\xfe",
    b"Sun, 06 Nov 1994 08:49:37 GMT",
    b"Sunday, 06-Nov-94 08:49:37 GMT",
    b"Sun Nov  6 08:49:37 1994",
    b"Fri, 31 Dec 9999 23:59:59 GMT",
    b"Mon, 32 Foo 2026 99:99:99 +9999",
    b"Thu, 01 Jan 1970 00:00:00 -0000",
]
LINE = st.binary(max_size=80).map(lambda raw: raw.replace(b"\r", b"").replace(b"\n", b""))
RETRY_AFTERS = st.one_of(
    st.sampled_from(ODD_RETRY_AFTERS),
    st.integers(-(10**40), 10**40).map(lambda n: str(n).encode()),
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)).map(
        lambda when: format_datetime(when.replace(tzinfo=UTC), usegmt=True).encode()
    ),
    LINE,
)
TOKEN = st.text(string.ascii_letters + string.digits + "-", min_size=1, max_size=20)
HEADERS = st.lists(
    st.one_of(
        st.tuples(st.just(b"Retry-After"), RETRY_AFTERS),
        st.tuples(TOKEN.map(lambda name: b"X-" + name.encode()), LINE),
        st.tuples(st.sampled_from([b"Content-Type", b"Set-Cookie"]), LINE),
        st.just((b"X-Large", b"l" * 8000)),
    ),
    max_size=6,
)
BODIES = st.one_of(
    st.binary(max_size=1200),
    st.text(max_size=400).map(str.encode),
    st.tuples(st.binary(min_size=1, max_size=8), st.integers(1, 300)).map(lambda p: p[0] * p[1]),
)
STATUSES = st.one_of(
    st.sampled_from([100, 101, 103, 200, 201, 204, 299, 301, 304, 404, 410, 429, 500, 503]),
    st.integers(100, 999),
)
CASES = st.builds(
    Case,
    status=STATUSES,
    reason=LINE,
    headers=HEADERS.map(tuple),
    body=BODIES,
    framing=st.sampled_from(
        ["length"] * 4 + ["chunked"] * 2 + ["until_close", "cut_short", "two_lengths", "garbage"]
    ),
    timing=st.sampled_from(["at_once"] * 8 + ["trickle", "hang"]),
    odd_head=st.sampled_from([""] * 10 + ["huge", "many"]),
)


@pytest.fixture
def receiver():
    with raw_receiver() as serving:
        yield serving


def owed(account, url: str) -> Delivery:
    """A delivery due now, to an endpoint of its own: no attempt before it counts on its
    circuit breaker."""
    now = timezone.now()
    endpoint = Endpoint.objects.create(account=account, url=url, events=["pet.created"])
    event = Event.objects.create(type="pet.created", data={"name": "Rex"}, created_at=now)
    return Delivery.objects.create(endpoint=endpoint, event=event, next_attempt_at=now)


def assert_printable(text: str, limit: int) -> None:
    assert "\x00" not in text
    assert all(c.isprintable() or c in "\n\t" for c in text), repr(text)
    assert len(text.encode()) <= limit


def assert_recorded_and_scheduled(delivery: Delivery) -> None:
    """The invariants every attempt keeps, whatever was answered."""
    assert delivery.last_attempt_at is not None
    status, kind = delivery.last_status, delivery.last_error_kind
    if status is None:
        assert kind in (AttemptError.TIMEOUT, AttemptError.CONNECTION), kind
        assert delivery.last_response == ""
    elif 200 <= status < 300:
        assert kind == ""
    else:
        assert kind == (AttemptError.REDIRECT if 300 <= status < 400 else AttemptError.STATUS)
    assert_printable(delivery.last_response, RESPONSE_CHARS)
    assert_printable(delivery.last_error, 300)
    endpoint = Endpoint.objects.get(pk=delivery.endpoint_id)
    if delivery.state == DeliveryState.DELIVERED:
        assert (delivery.attempts, delivery.next_attempt_at) == (1, None)
    elif delivery.state == DeliveryState.FAILED:  # only a 410 ends a first attempt's schedule
        assert (status, endpoint.enabled) == (410, False)
    else:
        assert delivery.next_attempt_at is not None
        # Tried again after the schedule's wait; or, paused as a Retry-After asked, at most
        # an hour, without spending the schedule.
        paused = endpoint.paused_until
        assert delivery.attempts == 1 or paused is not None
        assert paused is None or paused <= delivery.last_attempt_at + timedelta(hours=1)


@settings(
    max_examples=80,
    deadline=None,
    derandomize=True,  # the same cases on every run, as CI's fuzzing (pyproject.toml)
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=CASES)
@example(case=Case(200, b"OK", (), b"\x1f\x8b\x08\x00binary\x00answer\xff"))
@example(case=Case(500, b"Oops", (), b"\x00" * 600))
@example(case=Case(503, b"Busy", ((b"Retry-After", b"\xb2"),), b"later"))
@example(case=Case(429, b"Slow", ((b"Retry-After", b"1e309"),), b""))
@example(case=Case(429, b"Slow", ((b"Retry-After", b"-1"), (b"Retry-After", b"5")), b""))
@example(case=Case(503, b"", ((b"Retry-After", b"Fri, 31 Dec 9999 23:59:59 GMT"),), b""))
@example(case=Case(429, b"", ((b"Retry-After", b""),), b""))
@example(case=Case(200, b"OK", (), b"\xc3" * 700))
@example(case=Case(200, b"OK", (), b"{}", framing="cut_short"))
@example(case=Case(103, b"Early Hints", ((b"Link", b"</a>"),), b"", framing="until_close"))
@example(case=Case(200, b"OK", (), b"{}", timing="trickle"))
@example(case=Case(200, b"OK", (), b"{}", odd_head="huge"))
@example(case=Case(429, b"", ((b"Retry-After", b"120"),), b"\x00\xff" * 400, timing="trickle"))
@example(case=Case(200, b"OK", (), b"{}", framing="chunked", timing="hang"))
def test_every_answer_is_recorded_and_scheduled(make_account, receiver, case):
    receiver.answer = case.answer()
    delivery = owed(make_account(), receiver.url)
    # A run is sent only under its lease (services.lease_due), as a worker gets it.
    (run,) = services.lease_due(endpoint_id=delivery.endpoint_id)

    tasks.deliver(run)

    delivery.refresh_from_db()
    assert_recorded_and_scheduled(delivery)
    assert receiver.requests >= 1
    attempted = delivery.last_attempt_at
    assert attempted is not None
    event(f"recorded: {delivery.last_error_kind or 'delivered'}")
    event(f"answered: {case.framing}, {case.timing}")
    expected = case.expected()
    if expected is not None:
        assert (delivery.last_status, delivery.last_error_kind) == expected
    if expected is not None and expected[0] is not None and case.has_body:
        assert delivery.last_response == answers.printable(case.body[:512], RESPONSE_CHARS)
    value = case.retry_after()
    wait = None if value is None else answers.retry_after(value, attempted)
    answered = expected is not None and expected[0] in (429, 503)
    if answered and wait is not None and wait >= 5:  # a shorter pause is over already
        paused = Endpoint.objects.get(pk=delivery.endpoint_id).paused_until
        assert paused is not None
        assert abs((paused - attempted).total_seconds() - wait) < 5


# The two answers, and a trickle, each sent by the workers themselves (gevent's pool,
# as in production) to a receiver on loopback.

A_MINUTE = "60,60,60"  # a retry comes long after the test has looked
# The workers see the test's rows, and the plans the migrations made are back after each test.
through_the_workers = pytest.mark.django_db(transaction=True, serialized_rollback=True)


@pytest.fixture
def patient_workers(transactional_db, tmp_path):
    process = start_workers(worker_env(PETSTORE_WEBHOOK_RETRY_SECONDS=A_MINUTE), tmp_path)
    wait_for_a_worker()
    yield
    stop_workers(process)


def first_attempt_at(client, make_key, dog, url: str) -> Delivery:
    """The delivery of a new animal's event to ``url``, once the workers have tried it."""
    key = make_key()
    subscribe(client, key, url, "pet.created")
    send(client, "POST", key, "/v1/pets", {"name": "Rex", "categoryId": dog.pk})
    wait_until(
        lambda: Delivery.objects.filter(last_attempt_at__isnull=False).exists(),
        "an attempt recorded",
    )
    return Delivery.objects.select_related("endpoint").get()


def due_again_after(delivery: Delivery) -> timedelta:
    assert delivery.next_attempt_at is not None
    assert delivery.last_attempt_at is not None
    return delivery.next_attempt_at - delivery.last_attempt_at


@through_the_workers
@pytest.mark.parametrize(("status", "state"), [(200, "delivered"), (500, "pending")])
def test_a_binary_answer_holding_a_nul_is_recorded(
    client, make_key, dog, receiver, patient_workers, status, state
):
    body = b"\x1f\x8b\x08\x00\x00\x00\x00\x00binary"  # gzip, without Content-Encoding
    receiver.answer = Answer.whole(
        b"HTTP/1.1 %d X\r\nContent-Length: %d\r\n\r\n%s" % (status, len(body), body)
    )

    delivery = first_attempt_at(client, make_key, dog, receiver.url)

    assert (delivery.state, delivery.attempts, delivery.last_status) == (state, 1, status)
    assert delivery.last_response == answers.printable(body, RESPONSE_CHARS)
    assert "\x00" not in delivery.last_response
    if state == "pending":  # tried again after the schedule's first wait
        assert due_again_after(delivery) > timedelta(seconds=50)
    assert receiver.requests == 1


@through_the_workers
def test_a_retry_after_of_superscript_two_is_recorded_and_scheduled(
    client, make_key, dog, receiver, patient_workers
):
    # "²" in Latin-1, as http.client reads the header: a digit to str.isdigit().
    receiver.answer = Answer.whole(
        b"HTTP/1.1 503 Busy\r\nRetry-After: \xb2\r\nContent-Length: 0\r\n\r\n"
    )

    delivery = first_attempt_at(client, make_key, dog, receiver.url)

    assert (delivery.state, delivery.attempts, delivery.last_status) == ("pending", 1, 503)
    assert delivery.last_error_kind == AttemptError.STATUS
    assert due_again_after(delivery) > timedelta(seconds=50)
    assert delivery.endpoint.failures == 1
    assert delivery.endpoint.paused_until is None  # nothing was asked that could be read
    assert receiver.requests == 1


@through_the_workers
def test_a_receiver_trickling_its_answer_is_cut_off_at_the_timeout(
    client, make_key, dog, receiver, patient_workers
):
    # Each byte far within the timeout of the one before; the status line alone takes longer.
    raw = b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
    receiver.answer = Answer((*(raw[n : n + 1] for n in range(10)), raw[10:]), pause=0.3)

    delivery = first_attempt_at(client, make_key, dog, receiver.url)

    assert (delivery.state, delivery.attempts, delivery.last_status) == ("pending", 1, None)
    assert delivery.last_error_kind == AttemptError.TIMEOUT
    assert "timed out" in delivery.last_error
