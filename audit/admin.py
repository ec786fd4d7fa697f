"""The trail in the admin: read-only, filtered by who, what object and which action, and
exported as CSV with the list's filters and search applied.

A superuser reads all of it. Another member with the trail's view permission (account managers,
audit/migrations/0002) reads the entries about the kinds of object they may view themselves, so
the trail of their own work; the staff's own entries (sign-ins, second factor) stay with
superusers."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import QuerySet
from django.http import HttpRequest, StreamingHttpResponse
from django.urls import path
from django.utils import timezone

from audit.models import Entry
from petstore.admin import clipped

CSV_HEADER = ("when", "actor", "address", "action", "object type", "object id", "object", "changes")
# A spreadsheet runs a cell starting with one of these as a formula: a failed sign-in's actor
# is whatever was typed.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# The staff members' entries: sign-ins, failed sign-ins, second factor set up, failed or reset.
STAFF_MEMBERS = "auth.user"


def summary(changes: dict[str, Any]) -> str:
    """``field: before → after`` for each change, on one line."""
    return "; ".join(f"{field}: {_text(b)} → {_text(a)}" for field, (b, a) in changes.items())


def _text(value: Any) -> str:
    if value is None or value == "" or value == []:
        return "-"
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    return str(value)


def _cell(value: str) -> str:
    return f"'{value}" if value.startswith(FORMULA_STARTS) else value


class _Echo:
    """The file csv.writer writes to, handing each row back to be streamed."""

    def write(self, value: str) -> str:
        return value


def readable_types(user: Any) -> list[str]:
    """The object types (``app.model``, as entries name them) whose trail ``user`` may read:
    those they may view, but never the staff members'."""
    viewable = {
        f"{app_label}.{codename.removeprefix('view_')}"
        for app_label, codename in (perm.split(".", 1) for perm in user.get_all_permissions())
        if codename.startswith("view_")
    }
    return sorted(viewable - {STAFF_MEMBERS})


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("at", "actor", "address", "action", "target", "changes_summary")
    list_filter = ("action", "target_type", "actor")
    search_fields = ("actor", "address", "action", "target_repr", "target_id")
    date_hierarchy = "at"
    fields = (
        "at",
        "actor",
        "address",
        "action",
        "target_type",
        "target_id",
        "target_repr",
        "changes_summary",
    )
    readonly_fields = fields
    list_per_page = 50

    def get_queryset(self, request: HttpRequest) -> QuerySet[Entry]:
        entries = super().get_queryset(request)
        if request.user.is_superuser:
            return entries
        return entries.filter(target_type__in=readable_types(request.user))

    # Nobody adds, changes or deletes an entry here: only purge_audit forgets them.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="object", ordering="target_repr")
    def target(self, entry: Entry) -> str:
        if not entry.target_type:
            return clipped(entry.target_repr)
        return clipped(entry.target_repr, f"{entry.target_type} #{entry.target_id}")

    @admin.display(description="changes")
    def changes_summary(self, entry: Entry) -> str:
        return summary(entry.changes)

    def get_urls(self) -> list[Any]:
        return [
            path(
                "export.csv",
                self.admin_site.admin_view(self.export_view),
                name="audit_entry_export",
            ),
            *super().get_urls(),
        ]

    def export_view(self, request: HttpRequest) -> StreamingHttpResponse:
        """The entries the list shows with the same filters and search, every page of them."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        entries = self.get_changelist_instance(request).get_queryset(request)
        writer = csv.writer(_Echo())
        response = StreamingHttpResponse(
            (writer.writerow(row) for row in self._rows(entries)),
            content_type="text/csv; charset=utf-8",
        )
        day = timezone.now().date().isoformat()
        response["Content-Disposition"] = f'attachment; filename="trail-{day}.csv"'
        return response

    def _rows(self, entries: Any) -> Iterator[tuple[str, ...]]:
        yield CSV_HEADER
        for entry in entries.iterator():
            yield tuple(
                _cell(value)
                for value in (
                    entry.at.isoformat(),
                    entry.actor,
                    entry.address,
                    entry.action,
                    entry.target_type,
                    entry.target_id,
                    entry.target_repr,
                    json.dumps(entry.changes, cls=DjangoJSONEncoder, ensure_ascii=False),
                )
            )
