"""Nothing in the admin bypasses the workflow. Every ModelAdmin the site registers, of every
app, is walked from the registry: what a superuser may add, change and delete through it and
every action it offers, each either refused or taken through HTTP and shown to have gone
through the services (the event it records, or its entry in the trail with the superuser as
actor). Plain data no service owns (staff members, groups, a category's description, an
order's hand-over date) is named as such. A model registered without an entry here fails."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from http import HTTPStatus
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group, User
from django.db import connection
from django.db.models import Model
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from apikeys import services as apikey_services
from apikeys.models import Account, ApiKey, Ban, Plan
from apikeys.windows import WINDOWS
from audit.models import Entry
from audit.services import record
from events.models import Event
from pets import services as pet_services
from pets.models import Category, Pet
from store import services as store_services
from store.models import Order
from tests.admin_pages import answered_yes, form_data
from webhooks import services as webhook_services
from webhooks.models import Delivery, Endpoint, StaffDisabledUrl

Posted = dict[str, Any] | Callable[[], dict[str, Any]]


class Refused:
    """The admin does not offer it to anyone, a superuser included."""


class ReadOnly:
    """The page offers no field: saving it writes nothing of the row."""


@dataclass(frozen=True)
class Write:
    """A write a superuser may make, and what shows where it went: the ``event`` it records,
    its ``trail`` entry, or ``plain``: why it is data no service owns."""

    event: str = ""
    trail: str = ""
    plain: str = ""
    posted: Posted = field(default_factory=dict)  # what the form or the confirmation sets
    before: Callable[[Any], object] | None = None  # the row made ready for the write

    def __post_init__(self) -> None:
        assert len([kind for kind in (self.event, self.trail, self.plain) if kind]) == 1


REFUSED, READ_ONLY = Refused(), ReadOnly()
Way = Refused | ReadOnly | Write

_numbers = itertools.count(1)


def _n() -> int:
    return next(_numbers)


def a_member() -> User:
    return User.objects.create_user(f"member{_n()}", is_staff=True)


def an_account() -> Account:
    return apikey_services.account_create(name="Shelter app", plan=Plan.objects.get(code="free"))


def a_key() -> ApiKey:
    return apikey_services.apikey_issue(account=an_account()).api_key


def a_category() -> Category:
    return pet_services.category_create(name=f"Kind {_n()}")


def a_pet() -> Pet:
    return pet_services.pet_create(name="Rex", category_id=a_category().pk)


def an_order() -> Order:
    return store_services.order_place(account_id=an_account().pk, pet_id=a_pet().pk)


def an_endpoint() -> Endpoint:
    return webhook_services.endpoint_create(
        account_id=an_account().pk, url="https://hooks.example.com/", events=["pet.created"]
    )


def a_staff_disabled_url() -> StaffDisabledUrl:
    endpoint = an_endpoint()
    webhook_services.endpoint_set_enabled(endpoint, False, staff=True)
    return StaffDisabledUrl.objects.get(account_id=endpoint.account_id)


def a_delivery() -> Delivery:
    endpoint = an_endpoint()
    pet_services.pet_create(name="Ziggy", category_id=a_category().pk)
    webhook_services.fan_out()
    return Delivery.objects.get(endpoint=endpoint)


def a_ban() -> Ban:
    now = timezone.now()
    return apikey_services.ban_record(
        api_key=a_key(), started_at=now, ends_at=now + timedelta(minutes=10), number=1
    )


def an_entry() -> Entry:
    return record(actor="someone", action="account.created", target=an_account())


@dataclass(frozen=True)
class Expected:
    make: Callable[[], Model]  # one row, made the way the service makes it
    add: Way = REFUSED
    change: Way = REFUSED
    delete: Way = REFUSED
    actions: dict[str, Way] = field(default_factory=dict)  # every action a superuser is offered


STAFF = "Django's own: staff members and their groups, in the admin's history"
DELETED_ACCOUNT = Write(trail="account.deleted")
DELETED_ENDPOINT = Write(trail="endpoint.deleted")

# By model (``app_label.ModelName``): how each write of its admin goes.
EXPECTED: dict[str, Expected] = {
    "auth.Group": Expected(
        make=lambda: Group.objects.create(name=f"Volunteers {_n()}"),
        add=Write(plain=STAFF, posted={"name": "Helpers"}),
        change=Write(plain=STAFF, posted={"name": "Renamed"}),
        delete=Write(plain=STAFF),
        actions={"delete_selected": Write(plain=STAFF)},
    ),
    "auth.User": Expected(
        make=a_member,
        add=Write(
            plain=STAFF,
            posted={
                "username": "newcomer",
                "usable_password": "true",
                "password1": "a long pass phrase",
                "password2": "a long pass phrase",
            },
        ),
        change=Write(plain=STAFF, posted={"first_name": "Robin"}),
        delete=Write(plain=STAFF),
        actions={
            "delete_selected": Write(plain=STAFF),
            "reset_second_factor": Write(trail="staff.devices_reset"),
        },
    ),
    # A member sets up their own second factor; a superuser resets it (above, in the trail).
    "otp_totp.TOTPDevice": Expected(
        make=lambda: TOTPDevice.objects.create(user=a_member(), name="Phone", confirmed=True)
    ),
    "otp_static.StaticDevice": Expected(
        make=lambda: StaticDevice.objects.create(user=a_member(), name="Recovery codes")
    ),
    "apikeys.Account": Expected(
        make=an_account,
        add=Write(
            trail="account.created",
            posted=lambda: {"name": "Happy Tails", "plan": Plan.objects.get(code="free").pk},
        ),
        change=Write(
            trail="account.plan_changed", posted=lambda: {"plan": Plan.objects.get(code="pro").pk}
        ),
        delete=DELETED_ACCOUNT,
        actions={
            "delete_selected": DELETED_ACCOUNT,
            "suspend": Write(trail="account.suspended"),
            "reactivate": Write(
                trail="account.reactivated",
                before=lambda account: apikey_services.account_suspend(account=account),
            ),
        },
    ),
    "apikeys.ApiKey": Expected(
        make=a_key,
        change=Write(trail="apikey.changed", posted={"name": "Renamed"}),
        actions={
            "revoke": Write(trail="apikey.revoked"),
            "rotate": Write(trail="apikey.rotated"),
        },
    ),
    "apikeys.Plan": Expected(
        make=lambda: Plan.objects.get(code="pro"),
        change=Write(trail="plan.limits_changed", posted={WINDOWS[0].plan_field: 12345}),
    ),
    "apikeys.Ban": Expected(
        make=a_ban, change=READ_ONLY, actions={"lift": Write(trail="ban.lifted")}
    ),
    "pets.Category": Expected(
        make=a_category,
        add=Write(event="category.created", posted={"name": "Ferrets"}),
        change=Write(
            plain="no event says a category changed; its id, which partners hold, stays",
            posted={"description": "Small and curious"},
        ),
    ),
    "pets.Pet": Expected(
        make=a_pet,
        add=Write(
            event="pet.created",
            posted=lambda: {"name": "Ziggy", "category": a_category().pk, "status": "available"},
        ),
        change=Write(event="pet.status_changed", posted={"status": "pending"}),
        actions={
            "mark_pending": Write(event="pet.status_changed"),
            "mark_available": Write(
                event="pet.status_changed",
                before=lambda pet: pet_services.pet_change_status(pet_id=pet.pk, status="pending"),
            ),
        },
    ),
    "store.Order": Expected(
        make=an_order,
        change=Write(
            plain="the hand-over date agreed with the adopter; the status moves by the actions",
            posted={"ship_date_0": "2026-12-24", "ship_date_1": "10:00:00"},
        ),
        actions={
            "approve": Write(event="order.approved"),
            "deliver": Write(
                event="order.delivered",
                before=lambda order: store_services.order_approve(order_id=order.pk),
            ),
            "cancel": Write(event="order.cancelled"),
        },
    ),
    "webhooks.Endpoint": Expected(
        make=an_endpoint,
        change=READ_ONLY,
        delete=DELETED_ENDPOINT,
        actions={
            "delete_selected": DELETED_ENDPOINT,
            "disable": Write(trail="endpoint.disabled"),
            "enable": Write(
                trail="endpoint.enabled",
                before=lambda endpoint: webhook_services.endpoint_set_enabled(endpoint, False),
            ),
            "rotate_secret": Write(trail="endpoint.secret_rotated"),
            "redeliver_failed": Write(trail="endpoint.recovered"),
            "recover_since": Write(trail="endpoint.recovered"),
            "send_test": Write(trail="endpoint.tested", posted={"type": "pet.created"}),
        },
    ),
    "webhooks.StaffDisabledUrl": Expected(
        make=a_staff_disabled_url,
        change=READ_ONLY,
        actions={"lift": Write(trail="endpoint_url.lifted")},
    ),
    "webhooks.Delivery": Expected(
        make=a_delivery,
        change=READ_ONLY,
        actions={"redeliver": Write(trail="delivery.retried")},
    ),
    "audit.Entry": Expected(make=an_entry),
    # Written with its change by the app that made it; the admin only shows it.
    "events.Event": Expected(make=lambda: (a_pet(), Event.objects.latest("id"))[1]),
}

REGISTERED = {model._meta.label: model for model in admin.site._registry}


def admin_of(label: str) -> admin.ModelAdmin:
    return admin.site._registry[REGISTERED[label]]


def expected(label: str) -> Expected:
    assert label in EXPECTED, f"{label} is in the admin: say in EXPECTED how its writes go"
    return EXPECTED[label]


def as_superuser(user: User) -> Any:
    request = RequestFactory().get("/admin/")
    request.user = user
    return request


def url(label: str, view: str, *args: Any) -> str:
    app, model = label.lower().split(".")
    return reverse(f"admin:{app}_{model}_{view}", args=args)


def row(obj: Model) -> dict[str, Any] | None:
    """The row as it is stored now; None once it is gone."""
    found = type(obj)._default_manager.filter(pk=obj.pk).values().first()
    return dict(found) if found is not None else None


def posted(write: Write) -> dict[str, Any]:
    return write.posted() if callable(write.posted) else dict(write.posted)


def records(write: Write, actor: str) -> int:
    """How many of what ``write`` records there are: its events, or its entries by ``actor``."""
    if write.event:
        return Event.objects.filter(type=write.event).count()
    return Entry.objects.filter(action=write.trail, actor=actor).count()


def writes(label: str) -> list[Any]:
    """Each write ``label``'s entry lets a superuser make, as a test's parameters."""
    entry = EXPECTED.get(label)
    if entry is None:
        return []
    every = {"add": entry.add, "change": entry.change, "delete": entry.delete}
    every |= {f"action {name}": way for name, way in entry.actions.items()}
    return [
        pytest.param(label, kind, way, id=f"{label} {kind}")
        for kind, way in every.items()
        if isinstance(way, Write)
    ]


def test_every_entry_names_a_registered_admin():
    assert set(EXPECTED) - set(REGISTERED) == set()


@pytest.mark.parametrize("label", sorted(REGISTERED))
def test_what_a_superuser_is_offered_is_what_the_table_says(label, admin_user):
    entry, model_admin = expected(label), admin_of(label)
    request, obj = as_superuser(admin_user), entry.make()

    assert model_admin.has_add_permission(request) == isinstance(entry.add, Write)
    assert model_admin.has_change_permission(request, obj) == (entry.change is not REFUSED)
    assert model_admin.has_delete_permission(request, obj) == isinstance(entry.delete, Write)
    assert set(model_admin.get_actions(request)) == set(entry.actions)
    assert all(isinstance(way, Write) for way in entry.actions.values())
    if entry.change is READ_ONLY:
        assert set(model_admin.get_fields(request, obj)) <= set(
            model_admin.get_readonly_fields(request, obj)
        )


@pytest.mark.parametrize("label", sorted(REGISTERED))
def test_no_inline_writes_a_row_of_its_own(label, admin_user):
    entry, model_admin = expected(label), admin_of(label)
    request, obj = as_superuser(admin_user), entry.make()

    for inline in model_admin.get_inline_instances(request, obj):
        assert not inline.has_add_permission(request, obj), inline
        assert not (inline.can_delete and inline.has_delete_permission(request, obj)), inline
        assert set(inline.get_fields(request, obj)) <= set(
            inline.get_readonly_fields(request, obj)
        ), inline


@pytest.mark.parametrize(
    "label", sorted(label for label, entry in EXPECTED.items() if entry.change is READ_ONLY)
)
def test_a_read_only_page_writes_nothing_of_its_row_when_saved(label, admin_client):
    obj = expected(label).make()
    change = url(label, "change", obj.pk)
    page = admin_client.get(change)
    table = connection.ops.quote_name(type(obj)._meta.db_table)

    with CaptureQueriesContext(connection) as queries:
        saved = admin_client.post(change, form_data(page))

    assert saved.status_code == HTTPStatus.FOUND
    written = [q["sql"] for q in queries if table in q["sql"] and not q["sql"].startswith("SELECT")]
    assert written == []


@pytest.mark.parametrize(
    ("label", "kind", "write"), [w for label in sorted(REGISTERED) for w in writes(label)]
)
def test_each_write_goes_through_the_services_or_is_plain_data(
    label, kind, write, admin_client, admin_user
):
    obj = expected(label).make()
    if write.before is not None:
        write.before(obj)
    was, recorded = row(obj), 0 if write.plain else records(write, admin_user.username)

    if kind == "add":
        count = type(obj)._default_manager.count()
        page = admin_client.get(url(label, "add"))
        response = admin_client.post(url(label, "add"), form_data(page, **posted(write)))
        assert response.status_code == HTTPStatus.FOUND, response.context["adminform"].form.errors
        assert type(obj)._default_manager.count() == count + 1
    elif kind == "change":
        page = admin_client.get(url(label, "change", obj.pk))
        response = admin_client.post(url(label, "change", obj.pk), form_data(page, **posted(write)))
        assert response.status_code == HTTPStatus.FOUND, response.context["adminform"].form.errors
        assert row(obj) != was
    elif kind == "delete":
        response = admin_client.post(url(label, "delete", obj.pk), {"post": "yes"})
        assert response.status_code == HTTPStatus.FOUND
        assert row(obj) is None
    else:
        chosen = {"action": kind.removeprefix("action "), "_selected_action": [obj.pk], "index": 0}
        response = admin_client.post(url(label, "changelist"), chosen)
        if response.status_code == HTTPStatus.OK:  # it asks first: answered Yes
            response = admin_client.post(
                url(label, "changelist"), answered_yes(response, **posted(write))
            )
        assert response.status_code in (HTTPStatus.OK, HTTPStatus.FOUND)

    if write.plain:
        assert kind == "add" or row(obj) != was
    else:
        assert records(write, admin_user.username) == recorded + 1
