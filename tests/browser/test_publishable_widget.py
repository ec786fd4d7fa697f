"""A partner's web page uses a publishable key from its own origin, in Chromium; the same page
served from another origin cannot."""

from __future__ import annotations

import functools
import http.server
import re
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from apikeys.models import ApiKey, Plan
from apikeys.services import account_create
from pets.models import Category, Pet
from tests.browser.conftest import log_in, make_staff

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

PUB_KEY = re.compile(r"^petstore_pub_live_[0-9A-Za-z]{33}$")

# The partner's widget: lists adoptable animals with the key, shows the minute's RateLimit field.
WIDGET = """<!doctype html>
<meta charset="utf-8"><title>Adopt a friend</title>
<ul id="pets"></ul><p id="status">loading</p><p id="ratelimit"></p>
<script>
  const params = new URLSearchParams(location.search);
  const status = document.getElementById("status");
  fetch(params.get("api") + "/v1/pets", {headers: {Authorization: "Bearer " + params.get("key")}})
    .then((response) => {
      if (!response.ok) throw new Error("HTTP " + response.status);
      document.getElementById("ratelimit").textContent = response.headers.get("RateLimit");
      return response.json();
    })
    .then((pets) => {
      for (const pet of pets) {
        const item = document.createElement("li");
        item.textContent = pet.name;
        document.getElementById("pets").append(item);
      }
      status.textContent = "ok";
    })
    .catch((error) => { status.textContent = "failed: " + error.message; });
</script>
"""


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def partner_site(tmp_path: Path) -> Iterator[int]:
    """A static web server on loopback serving the widget; its port."""
    (tmp_path / "widget.html").write_text(WIDGET)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    handler = functools.partial(_QuietHandler, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield port
    server.shutdown()
    server.server_close()


def test_a_publishable_key_works_from_its_origin_and_from_no_other(
    page: Page, live_server, partner_site
):
    make_staff("morgan", "Account managers")
    account = account_create(name="Happy Tails Shelter", plan=Plan.objects.get(code="free"))
    dog = Category.objects.create(name="Dog", description="Dogs")
    Pet.objects.create(name="Biscuit", category=dog, status="available")
    origin = f"http://127.0.0.1:{partner_site}"
    base = live_server.url

    log_in(page, base, "morgan")
    page.goto(f"{base}/admin/apikeys/account/{account.pk}/issue-key/")
    page.fill("#id_name", "Adoption widget")
    page.check("input[name=kind][value=publishable]")
    page.check("input[name=scopes][value='pets:read']")
    page.fill("#id_origins", origin)
    page.click("input[name=issue]")
    key = page.locator("[data-testid=api-key]").input_value()
    assert PUB_KEY.match(key), key
    expect(page.locator("[data-testid=key-access]")).to_contain_text(origin)
    assert ApiKey.objects.get().origin_list == [origin]

    page.goto(f"{origin}/widget.html?api={base}&key={key}")
    expect(page.locator("#status")).to_have_text("ok")
    expect(page.locator("#pets")).to_contain_text("Biscuit")
    expect(page.locator("#ratelimit")).to_have_text(re.compile(r'^"minute";r=59;t=\d+$'))

    # The very same page, served from another origin (another host name for loopback).
    page.goto(f"http://localhost:{partner_site}/widget.html?api={base}&key={key}")
    expect(page.locator("#status")).to_contain_text("failed")
    expect(page.locator("#pets")).to_be_empty()
