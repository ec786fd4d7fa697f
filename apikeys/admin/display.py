"""A key's cells, written once for the key list and for the keys on an account's page."""

from __future__ import annotations

from django.contrib import admin
from django.utils import timezone
from django.utils.html import format_html

from apikeys.models import ApiKey
from petstore.admin import badge, clipped, short_date


def key_state_badge(api_key: ApiKey) -> str:
    """The key's state, with when it came about in the tooltip."""
    state = api_key.state(timezone.now())
    if state == "active":
        return badge(state, works=True)
    when = {"revoked": api_key.revoked_at, "expired": api_key.expires_at}.get(state)
    tooltip = f"{state} {when:%Y-%m-%d %H:%M} UTC" if when else "the account is suspended"
    return badge(state, works=False, tooltip=tooltip)


def prefix_cell(api_key: ApiKey, tooltip: str = "") -> str:
    """The prefix, which may wrap after its shared start (``petstore_live_``) when the list is
    short of width; when the key was made is in its tooltip unless another is given."""
    head, _, tail = api_key.prefix.rpartition("_")
    return format_html(
        '<span class="key-prefix" title="{}">{}_<wbr>{}</span>',
        tooltip or f"created {api_key.created_at:%Y-%m-%d %H:%M} UTC",
        head,
        tail,
    )


class KeyCells:
    """The columns a key shows wherever it is listed (an inline ignores the orderings)."""

    @admin.display(description="prefix", ordering="prefix")
    def key_prefix(self, api_key: ApiKey) -> str:
        return prefix_cell(api_key)

    @admin.display(description="state")
    def state(self, api_key: ApiKey) -> str:
        return key_state_badge(api_key)

    @admin.display(description="name", ordering="name")
    def key_name(self, api_key: ApiKey) -> str:
        return clipped(api_key.name)

    @admin.display(description="last use", ordering="last_used_at")
    def last_used(self, api_key: ApiKey) -> str:
        return short_date(api_key.last_used_at)

    @admin.display(description="expires", ordering="expires_at")
    def expires(self, api_key: ApiKey) -> str:
        return short_date(api_key.expires_at)
