"""The admin site's titles, the cells its lists share (short dates, clipped names, badges), and
the change that writes only what its form changed.

The lists are laid out for a laptop's width (1280 px): what staff decide on (state, plan,
status) comes first and is compact, dates show the day with the full instant in a tooltip, and
names take the room their column has, wrapping and cut past two lines with the full text in a
tooltip, so that no column is pushed out of view
(petstore/static/petstore/admin.css; tests/browser/test_admin_widths.py holds every list to it).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString

admin.site.site_header = "Pet store administration"
admin.site.site_title = "Pet store admin"
admin.site.index_title = "Animals, adoptions and customer accounts"

# A badge's mark says whether the thing works now, so that the state reads without its colour:
# the word beside it says why not.
WORKS, REFUSED = "✓", "✕"


def short_date(value: datetime | None) -> str:
    """The day, with the full instant (and its time zone) in a tooltip."""
    if value is None:
        return admin.site.empty_value_display
    local = timezone.localtime(value)
    return format_html(
        '<time datetime="{}" title="{}">{}</time>',
        local.isoformat(),
        local.strftime("%Y-%m-%d %H:%M:%S %Z"),
        local.strftime("%Y-%m-%d"),
    )


def clipped(text: str, tooltip: str = "") -> SafeString:
    """A name, whole where its column has room, else cut past two lines; all of it in a tooltip."""
    return format_html('<span class="clipped" title="{}">{}</span>', tooltip or text, text)


def badge(label: str, *, works: bool, tooltip: str = "") -> SafeString:
    return format_html(
        '<span class="badge badge-{}" title="{}"><span aria-hidden="true">{}</span> {}</span>',
        "works" if works else "refused",
        tooltip or label,
        WORKS if works else REFUSED,
        label,
    )


class SavesItsFieldsOnly(admin.ModelAdmin):
    """A change writes only the fields its form changed: the other columns (a status, a
    failure count) move through the services, and writing back the page's copy of them would
    undo a move made since the page was read."""

    # Fields the form shows but whose change the admin hands to a service (a pet's status).
    moved_by_services: tuple[str, ...] = ()

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if not change:
            super().save_model(request, obj, form, change)
            return
        fields = [name for name in form.changed_data if name not in self.moved_by_services]
        if fields:
            touched = [f.name for f in obj._meta.concrete_fields if getattr(f, "auto_now", False)]
            obj.save(update_fields=[*fields, *touched])
