"""Every admin list at a laptop's width (1280 by 800) and a desktop's (1920 by 1080): whatever
columns a list has, they are all in view, and neither the page nor the table scrolls sideways."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from django_otp.plugins.otp_static.models import StaticDevice
from playwright.sync_api import Page

from apikeys import services as apikey_services
from apikeys.models import ApiKey, DailyUsage, Plan
from apikeys.windows import WINDOWS
from pets.models import Category, Pet
from store import services as store_services
from tests.browser.conftest import PASSWORD, log_in, make_staff, screenshot

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

VIEWPORTS = [(1280, 800), (1920, 1080)]
LONG_ACCOUNT = "The Greater Manchester and Cheshire Regional Animal Rescue and Rehoming Association"
LONG_KEY = "Adoption widget on the partner website — production, EU replica behind the CDN"
LONG_EMAIL = "platform-integrations-team@greater-manchester-animal-rescue.example"
LONG_PET_TAIL = "Wigglesworth-Barkington the Third, Good Boy No."

# Each list, who opens it, and the columns staff act on there (the ``column-…`` class of the
# header; the action checkbox's is ``action-checkbox-column``). Every other column is checked
# as well, whatever it is: columns added later are held to the same width.
LISTS = [
    (
        "/admin/apikeys/apikey/",
        "manager",
        ["action-checkbox-column", "column-state", "column-last_used"],
    ),
    (
        "/admin/apikeys/account/",
        "manager",
        ["action-checkbox-column", "column-is_active", "column-plan", "column-last_used"],
    ),
    ("/admin/apikeys/ban/", "manager", ["action-checkbox-column", "column-state"]),
    ("/admin/apikeys/plan/", "manager", ["column-name"]),
    ("/admin/pets/pet/", "shelter", ["action-checkbox-column", "column-status"]),
    ("/admin/pets/category/", "shelter", ["column-category_name"]),
    ("/admin/store/order/", "shelter", ["action-checkbox-column", "column-status"]),
    ("/admin/auth/user/", "superuser", ["action-checkbox-column", "column-is_staff"]),
    ("/admin/auth/group/", "superuser", ["action-checkbox-column", "column-__str__"]),
]

# For each cell of the results table: its column and where it is; and how wide the page and the
# table are against the width they are shown in.
MEASURE = """() => {
  const table = document.querySelector('#result_list');
  const cells = [...table.querySelectorAll('thead th, tbody td, tbody th')].map((cell) => {
    const box = cell.getBoundingClientRect();
    const column = [...cell.classList].find((c) => /^(column-|field-|action-checkbox)/.test(c));
    return {column: column || cell.className, header: cell.closest('thead') !== null,
            left: box.left, right: box.right, top: box.top, bottom: box.bottom};
  });
  const page = document.documentElement;
  const results = document.querySelector('#changelist .results');
  return {
    cells, width: page.clientWidth, height: window.innerHeight,
    page: [page.scrollWidth, page.clientWidth],
    results: [results.scrollWidth, results.clientWidth],
  };
}"""


def realistic_rows() -> None:
    """What a busy admin holds: long names, every key and account state, bans, orders."""
    now = timezone.now()
    plans = {plan.code: plan for plan in Plan.objects.all()}
    accounts = [
        apikey_services.account_create(
            name=f"{LONG_ACCOUNT} {n}", email=f"{n}.{LONG_EMAIL}", plan=plans[code]
        )
        for n, code in enumerate(["free", "pro", "business"])
    ]
    # Every window's limit at its widest, the minute's aside.
    widest: dict[str, Any] = {w.per: 5_000_000 for w in WINDOWS} | {"per_minute": 5000}
    accounts.append(
        apikey_services.account_create(
            name="Paws", email="ops@paws.example", plan=plans["enterprise"], **widest
        )
    )
    apikey_services.account_suspend(account=accounts[2])
    for account in accounts:
        for n in range(2):
            apikey_services.apikey_issue(account=account, name=f"{LONG_KEY} #{n}")
    keys = list(ApiKey.objects.order_by("id"))
    ApiKey.objects.filter(pk__in=[k.pk for k in keys[:5]]).update(last_used_at=now)
    apikey_services.apikey_revoke(api_key=keys[1])
    ApiKey.objects.filter(pk=keys[3].pk).update(expires_at=now - timedelta(hours=1))
    apikey_services.ban_record(
        api_key=keys[0], started_at=now, ends_at=now + timedelta(minutes=10), number=1
    )
    lifted = apikey_services.ban_record(
        api_key=keys[2],
        started_at=now - timedelta(hours=2),
        ends_at=now - timedelta(hours=1),
        number=1,
    )
    apikey_services.ban_lift(ban=lifted, lifted_by=User.objects.get(username="manager"))

    dogs = Category.objects.create(
        name="Dogs of every size and breed, puppies and seniors alike, including cross-breeds",
        description="Every dog in our care, from the rehoming centre and our foster homes. " * 3,
    )
    Category.objects.create(name="Cats", description="Cats")
    pets = [
        Pet.objects.create(
            name=f"Sir Reginald {LONG_PET_TAIL} {n}",
            category=dogs,
            status="available",
        )
        for n in range(5)
    ]
    for account, pet in zip(accounts, pets, strict=False):
        store_services.order_place(account_id=account.pk, pet_id=pet.pk)

    # Usage at its widest: seven-figure totals, refusals, an account near its limit.
    for account, admitted, refused in ((accounts[0], 912, 4_821), (accounts[3], 4_321_000, 0)):
        limits = account.limits
        DailyUsage.objects.create(
            day=now.date(),
            account=account,
            api_key=account.api_keys.order_by("id")[0],
            admitted=admitted,
            refused=refused,
            limits=limits.by_name(),
            epoch="widths",
            rolled_up_at=now,
        )


@pytest.fixture
def people() -> None:
    make_staff("manager", "Account managers")
    make_staff("shelter", "Shelter staff")
    superuser = User.objects.create_superuser(
        "a-superuser-with-a-rather-long-name", "root@example.org", PASSWORD
    )
    StaticDevice.objects.create(user=superuser, name="Recovery codes")
    make_staff("another-member-of-the-account-management-team", "Account managers")


@pytest.mark.parametrize(("width", "height"), VIEWPORTS)
def test_every_column_of_every_list_is_in_view_without_scrolling_sideways(
    page: Page, live_server: Any, people: None, width: int, height: int
):
    realistic_rows()
    page.set_viewport_size({"width": width, "height": height})
    signed_in = None
    for url, who, named in LISTS:
        user = "a-superuser-with-a-rather-long-name" if who == "superuser" else who
        if user != signed_in:
            page.context.clear_cookies()
            log_in(page, live_server.url, user)
            signed_in = user
        page.goto(f"{live_server.url}{url}")
        found = page.evaluate(MEASURE)
        # The navigation sidebar starts collapsed, leaving its width to the list.
        assert page.get_attribute("#nav-sidebar", "aria-expanded") == "false"

        headers = {cell["column"] for cell in found["cells"] if cell["header"]}
        assert set(named) <= headers, (url, headers)
        rows = [cell for cell in found["cells"] if not cell["header"]]
        assert len(rows) >= len(headers), (url, "a list to measure needs rows")
        outside = [
            (cell["column"], round(cell["left"]), round(cell["right"]))
            for cell in found["cells"]
            if cell["left"] < 0 or cell["right"] > found["width"]
        ]
        assert not outside, (url, width, outside)
        above_the_fold = [
            cell["column"]
            for cell in found["cells"]
            if cell["header"] and not 0 <= cell["top"] < cell["bottom"] <= found["height"]
        ]
        assert not above_the_fold, (url, width, above_the_fold)
        page_scroll, page_width = found["page"]
        assert page_scroll <= page_width, (url, width, "the page scrolls sideways")
        table_scroll, table_width = found["results"]
        assert table_scroll <= table_width, (url, width, "the table scrolls sideways")
        if width == 1280 and url in ("/admin/apikeys/account/", "/admin/apikeys/apikey/"):
            screenshot(page, "account-list" if "account" in url else "key-list")


# Each name cell's text, whether any of it is cut off, and how many lines it takes.
NAMES = """() => [...document.querySelectorAll('#result_list .clipped')].map((name) => {
  const style = getComputedStyle(name);
  return {text: name.textContent, column: name.closest('td, th').className,
          cut: name.scrollWidth > name.clientWidth || name.scrollHeight > name.clientHeight,
          lines: Math.round(name.getBoundingClientRect().height / parseFloat(style.lineHeight))};
})"""


def test_names_are_shown_whole_where_their_column_has_room(page: Page, live_server: Any):
    """The shelter staff's lists at 1280 by 800 with names of a usual length: each one whole
    and on one line (a fixed width once cut "Ziggy the Greengrocer's Dog" to "Ziggy the Gree…")."""
    make_staff("shelter", "Shelter staff")
    dogs = Category.objects.create(name="Dogs and puppies", description="Every dog in our care")
    free = Plan.objects.get(code="free")
    orders = [
        ("Greater Manchester Animal Rescue", "Ziggy the Greengrocer's Dog"),
        ("Happy Tails Shelter", "Sir Barkington"),
    ]
    for account_name, pet_name in orders:
        account = apikey_services.account_create(name=account_name, plan=free)
        pet = Pet.objects.create(name=pet_name, category=dogs, status="available")
        store_services.order_place(account_id=account.pk, pet_id=pet.pk)

    log_in(page, live_server.url, "shelter")
    for url, expected in [
        ("/admin/store/order/", 4),
        ("/admin/pets/pet/", 4),
        ("/admin/pets/category/", 2),
    ]:
        page.goto(f"{live_server.url}{url}")
        names = page.evaluate(NAMES)

        assert len(names) == expected, (url, names)
        assert [n for n in names if n["cut"] or n["lines"] != 1] == [], url


def test_a_long_name_wraps_and_is_cut_only_past_two_lines_with_all_of_it_in_its_tooltip(
    page: Page, live_server: Any, people: None
):
    realistic_rows()

    log_in(page, live_server.url, "shelter")
    page.goto(f"{live_server.url}/admin/store/order/")
    names = page.evaluate(NAMES)
    tooltips = page.locator("#result_list .clipped").evaluate_all(
        "(names) => names.map((name) => name.title)"
    )

    long_ones = [n for n in names if n["text"].startswith(("The Greater", "Sir Reginald"))]
    assert len(long_ones) == 7, names
    # At this width the order list has room for them on two lines: wrapped, none cut.
    assert [
        (n["text"], n["lines"], n["cut"]) for n in long_ones if n["lines"] != 2 or n["cut"]
    ] == []
    assert [n for n in names if n["lines"] > 2] == []
    assert set(tooltips) >= {f"{LONG_ACCOUNT} 0", f"Sir Reginald {LONG_PET_TAIL} 0"}
