"""Webhook endpoints and their deliveries, for account managers: on an account's page its
endpoints; on an endpoint's page its recent deliveries; actions to disable, enable, rotate a
secret (shown once), redeliver, send the failed deliveries again since a time and send a test
event, the last two after a form (docs/design.md#partners-webhooks)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.html import format_html

from apikeys.actors import actor_of
from apikeys.admin.accounts import AccountAdmin
from apikeys.models import Account
from events.types import EventType
from petstore.admin import SavesItsFieldsOnly, short_date
from petstore.exceptions import Conflict
from webhooks import deliveries, endpoints, services
from webhooks.models import Delivery, Endpoint, EndpointState, StaffDisabledUrl
from webhooks.serializers import RecoverySerializer, TestSendSerializer

RECENT_DELIVERIES = 20


def describe_state(endpoint: Endpoint) -> str:
    """The endpoint's state as the API gives it, with its pause's end or its reason."""
    state = endpoint.state
    if state == EndpointState.PAUSED:
        return format_html("paused until {}", short_date(endpoint.paused_until))
    if state == EndpointState.DISABLED:
        return f"disabled: {endpoint.disabled_reason}" if endpoint.disabled_reason else "disabled"
    return "healthy"


class EndpointInline(admin.TabularInline):
    """On an account's page: its endpoints, each linked to its own page (its deliveries)."""

    model = Endpoint
    extra = 0
    can_delete = False
    fields = ("url", "event_types", "enabled", "health", "last_delivery")
    readonly_fields = fields
    show_change_link = True
    verbose_name_plural = "webhook endpoints"

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.display(description="types")
    def event_types(self, endpoint: Endpoint) -> str:
        return ", ".join(endpoint.events)

    @admin.display(description="state")
    def health(self, endpoint: Endpoint) -> str:
        return describe_state(endpoint)

    @admin.display(description="last delivery")
    def last_delivery(self, endpoint: Endpoint) -> str:
        last = endpoint.deliveries.exclude(last_attempt_at=None).order_by("-last_attempt_at")
        found = last.first()
        if found is None:
            return admin.site.empty_value_display
        return format_html("{}: {}", short_date(found.last_attempt_at), found.get_state_display())


# The account's page lists its endpoints too. Its admin is apikeys', which imports nothing of
# webhooks (apikeys sits below them), so it is registered again here with the endpoints added,
# the way Django's documentation extends the admin of another app's model.
admin.site.unregister(Account)


@admin.register(Account)
class AccountWithEndpointsAdmin(AccountAdmin):
    inlines = (*AccountAdmin.inlines, EndpointInline)


class DeliveryInline(admin.TabularInline):
    model = Delivery
    extra = 0
    can_delete = False
    fields = ("event", "state", "attempts", "last_status", "last_error", "next_attempt_at")
    readonly_fields = fields
    verbose_name_plural = f"recent deliveries (the last {RECENT_DELIVERIES})"

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[Delivery]:
        recent = super().get_queryset(request).select_related("event").order_by("-id")
        ids = list(recent.values_list("id", flat=True)[:RECENT_DELIVERIES])
        return recent.filter(id__in=ids)


class RecoveryForm(forms.Form):
    """From when the failed deliveries are sent again: by the API's rule."""

    since = forms.DateTimeField(
        label=f"Since ({timezone.get_default_timezone_name()})",
        initial=lambda: timezone.now() - timedelta(hours=24),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=RecoverySerializer().fields["since"].help_text or "",
    )

    def clean_since(self) -> datetime:
        # The API's rule, so that the admin refuses the times the API refuses.
        rule = RecoverySerializer(data={"since": self.cleaned_data["since"].isoformat()})
        if not rule.is_valid():
            raise forms.ValidationError([str(error) for error in rule.errors["since"]])
        since: datetime = rule.validated_data["since"]
        return since


class ExampleSendForm(forms.Form):
    """The type of the example event sent."""

    type = forms.ChoiceField(
        choices=EventType.choices, help_text=TestSendSerializer().fields["type"].help_text or ""
    )


@admin.register(Endpoint)
class EndpointAdmin(SavesItsFieldsOnly):
    list_display = ("url", "account", "health", "created_at")
    list_filter = ("enabled",)
    search_fields = ("url", "account__name")
    list_select_related = ("account",)
    fields = ("account", "url", "events", "health", "failures", "created_at")
    readonly_fields = fields

    @admin.display(description="state")
    def health(self, endpoint: Endpoint) -> str:
        return describe_state(endpoint)

    inlines = (DeliveryInline,)
    actions = (
        "disable",
        "enable",
        "rotate_secret",
        "redeliver_failed",
        "recover_since",
        "send_test",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # made by the account, through the API

    # Deleted through the service, which records it in the trail.
    def delete_model(self, request: HttpRequest, obj: Endpoint) -> None:
        services.endpoint_delete(endpoint=obj, by=actor_of(request))

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Endpoint]) -> None:
        by = actor_of(request)
        for endpoint in queryset:
            services.endpoint_delete(endpoint=endpoint, by=by)

    @admin.action(description="Disable selected endpoints", permissions=["change"])
    def disable(self, request: HttpRequest, queryset: QuerySet[Endpoint]) -> None:
        by = actor_of(request)
        for endpoint in queryset:
            services.endpoint_set_enabled(
                endpoint, False, "Disabled by an account manager.", by=by, staff=True
            )
        self.message_user(request, f"{len(queryset)} endpoint(s) disabled.")

    @admin.action(description="Enable selected endpoints", permissions=["change"])
    def enable(self, request: HttpRequest, queryset: QuerySet[Endpoint]) -> None:
        by = actor_of(request)
        for endpoint in queryset:
            services.endpoint_set_enabled(endpoint, True, by=by)
        self.message_user(request, f"{len(queryset)} endpoint(s) enabled.")

    @admin.action(description="Rotate the secret (shown once)", permissions=["change"])
    def rotate_secret(self, request: HttpRequest, queryset: QuerySet[Endpoint]) -> None:
        by = actor_of(request)
        for endpoint in queryset:
            secret = endpoints.endpoint_rotate_secret(endpoint=endpoint, by=by).secret
            self.message_user(
                request,
                f"New secret of {endpoint.url}, shown this once: {secret}",
                messages.WARNING,
            )

    @admin.action(description="Redeliver their failed deliveries", permissions=["change"])
    def redeliver_failed(self, request: HttpRequest, queryset: QuerySet[Endpoint]) -> None:
        # A recovery since the endpoint was made: the API's own, in the trail.
        by, count = actor_of(request), 0
        for endpoint in queryset.order_by("pk"):
            requeued, has_more = deliveries.endpoint_recover(
                endpoint=endpoint, since=endpoint.created_at, by=by
            )
            count += requeued
            if has_more:
                self.message_user(request, f"More are left for {endpoint.url}: run it again.")
        self.message_user(request, f"{count} delivery(ies) sent again.")

    @admin.action(description="Send failed deliveries again since…", permissions=["change"])
    def recover_since(
        self, request: HttpRequest, queryset: QuerySet[Endpoint]
    ) -> TemplateResponse | None:
        form = RecoveryForm(request.POST if "confirm" in request.POST else None)
        if not form.is_valid():
            title = "Send their failed deliveries again"
            return self._action_page(request, queryset, "recover_since", form, title)
        by, since = actor_of(request), form.cleaned_data["since"]
        for endpoint in queryset.order_by("pk"):
            requeued, has_more = deliveries.endpoint_recover(endpoint=endpoint, since=since, by=by)
            more = "; more are left: run it again" if has_more else ""
            self.message_user(
                request,
                f"{requeued} delivery(ies) queued again for {endpoint.url}{more}.",
                messages.WARNING if has_more else messages.INFO,
            )
        return None

    @admin.action(description="Send a test event…", permissions=["change"])
    def send_test(
        self, request: HttpRequest, queryset: QuerySet[Endpoint]
    ) -> TemplateResponse | None:
        form = ExampleSendForm(request.POST if "confirm" in request.POST else None)
        if not form.is_valid():
            return self._action_page(request, queryset, "send_test", form, "Send a test event")
        by, kind = actor_of(request), form.cleaned_data["type"]
        for endpoint in queryset.order_by("pk"):
            try:
                delivery = deliveries.endpoint_test(endpoint=endpoint, event_type=kind, by=by)
            except deliveries.TestsSpent as exc:
                self.message_user(
                    request,
                    f"{endpoint.url}: {deliveries.TESTS_A_MINUTE} test sends a minute at most; "
                    f"try again in {exc.wait} s.",
                    messages.WARNING,
                )
                continue
            self.message_user(
                request, f"Test event {delivery.event.uid} ({kind}) queued for {endpoint.url}."
            )
        return None

    def _action_page(
        self,
        request: HttpRequest,
        queryset: QuerySet[Endpoint],
        action: str,
        form: forms.Form,
        title: str,
    ) -> TemplateResponse:
        """The page that asks for ``action``'s form, and posts it back with the selection."""
        chosen = queryset.select_related("account").order_by("pk")
        return TemplateResponse(
            request,
            "admin/webhooks/endpoint/action_form.html",
            {
                **self.admin_site.each_context(request),
                "title": title,
                "opts": self.model._meta,
                "endpoints": [(endpoint, describe_state(endpoint)) for endpoint in chosen],
                "action": action,
                "form": form,
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            },
        )


@admin.register(StaffDisabledUrl)
class StaffDisabledUrlAdmin(SavesItsFieldsOnly):
    """The URLs managers disabled an account's endpoint of, kept when the partner deletes the
    endpoint: lifting one lets the account make an endpoint for it again."""

    list_display = ("url", "account", "disabled_at")
    search_fields = ("url", "account__name")
    list_select_related = ("account",)
    fields = ("account", "url", "disabled_at")
    readonly_fields = fields
    actions = ("lift",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # recorded by "Disable selected endpoints"

    # Lifted through the service, which records it in the trail.
    def has_delete_permission(
        self, request: HttpRequest, obj: StaffDisabledUrl | None = None
    ) -> bool:
        return False

    @admin.action(description="Lift: the account may use these URLs again", permissions=["change"])
    def lift(self, request: HttpRequest, queryset: QuerySet[StaffDisabledUrl]) -> None:
        by = actor_of(request)
        for disabled in queryset:
            services.staff_disabled_url_lift(disabled=disabled, by=by)
        self.message_user(request, f"{len(queryset)} URL(s) lifted.")


@admin.register(Delivery)
class DeliveryAdmin(SavesItsFieldsOnly):
    list_display = ("event", "endpoint", "state", "attempts", "last_status", "next_attempt_at")
    list_filter = ("state",)
    list_select_related = ("event", "endpoint")
    readonly_fields = (
        "event",
        "endpoint",
        "state",
        "attempts",
        "next_attempt_at",
        "last_attempt_at",
        "last_status",
        "last_error",
        "created_at",
    )
    fields = readonly_fields
    actions = ("redeliver",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    # A delivery is what an endpoint is owed: forgetting it would lose the event for good.
    def has_delete_permission(self, request: HttpRequest, obj: Delivery | None = None) -> bool:
        return False

    @admin.action(description="Redeliver selected deliveries", permissions=["change"])
    def redeliver(self, request: HttpRequest, queryset: QuerySet[Delivery]) -> None:
        _redeliver_each(self, request, queryset)


def _redeliver_each(
    model_admin: admin.ModelAdmin, request: HttpRequest, chosen: QuerySet[Delivery]
) -> None:
    """Each delivery sent again through the API's service: what is being sent now, and test
    sends past the endpoint's minute, are left as they are and counted apart."""
    by, sent, refused = actor_of(request), 0, 0
    for delivery in chosen.select_related("event"):
        try:
            deliveries.delivery_retry(delivery=delivery, by=by)
        except (Conflict, deliveries.TestsSpent):
            refused += 1
        else:
            sent += 1
    model_admin.message_user(request, f"{sent} delivery(ies) sent again.")
    if refused:
        model_admin.message_user(
            request,
            f"{refused} left as they were: being sent right now, or test sends past "
            f"{deliveries.TESTS_A_MINUTE} a minute.",
            messages.WARNING,
        )
