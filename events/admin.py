"""The events in the admin, to read only: each is written with its change, by the app that
made it (``events.services``), and its data is shown as the feed and webhooks send it."""

from __future__ import annotations

import json

from django.contrib import admin
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Model
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.safestring import SafeString

from events.models import Event
from petstore.admin import short_date


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("uid", "type", "account", "when")
    list_filter = ("type", "test")
    list_select_related = ("account",)
    search_fields = ("uid",)
    ordering = ("-id",)
    fields = ("uid", "type", "account", "created_at", "position", "test", "fanned_out", "payload")
    readonly_fields = fields

    @admin.display(description="created", ordering="created_at")
    def when(self, event: Event) -> str:
        return short_date(event.created_at)

    @admin.display(description="data")
    def payload(self, event: Event) -> SafeString:
        text = json.dumps(event.data, indent=2, ensure_ascii=False, cls=DjangoJSONEncoder)
        return format_html('<pre class="event-data">{}</pre>', text)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False
