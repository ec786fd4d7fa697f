from __future__ import annotations

from collections.abc import Callable

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from petstore.admin import clipped, short_date
from petstore.exceptions import DomainError
from store import services
from store.models import Order


def _apply(
    request: HttpRequest, orders: QuerySet[Order], step: Callable[[int], Order], verb: str
) -> None:
    done, refused = 0, []
    for order_id in orders.values_list("pk", flat=True):
        try:
            step(order_id)
            done += 1
        except DomainError as exc:
            refused.append(exc.message)
    if done:
        messages.success(request, f"{done} order(s) {verb}.")
    for reason in refused:
        messages.error(request, reason)


@admin.register(Order)
class OrderAdmin(admin.ModelAdmin):
    # Status first after the number: it is what staff act on here.
    list_display = ("id", "status", "pet_name", "account_name", "ship", "created")
    list_filter = ("status",)
    search_fields = ("pet__name", "account__name")
    list_select_related = ("pet", "account")
    readonly_fields = ("account", "pet", "status", "quantity", "created_at", "updated_at")
    actions = ("approve", "deliver", "cancel")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # orders are placed through the API, by the adopting account

    @admin.display(description="animal", ordering="pet__name")
    def pet_name(self, order: Order) -> str:
        return clipped(order.pet.name)

    @admin.display(description="account", ordering="account__name")
    def account_name(self, order: Order) -> str:
        return clipped(order.account.name)

    @admin.display(description="ship date", ordering="ship_date")
    def ship(self, order: Order) -> str:
        return short_date(order.ship_date)

    @admin.display(description="created", ordering="created_at")
    def created(self, order: Order) -> str:
        return short_date(order.created_at)

    @admin.action(description="Approve selected orders", permissions=["change"])
    def approve(self, request: HttpRequest, queryset: QuerySet[Order]) -> None:
        _apply(request, queryset, lambda pk: services.order_approve(order_id=pk), "approved")

    @admin.action(description="Deliver selected orders (animal sold)", permissions=["change"])
    def deliver(self, request: HttpRequest, queryset: QuerySet[Order]) -> None:
        _apply(request, queryset, lambda pk: services.order_deliver(order_id=pk), "delivered")

    @admin.action(description="Cancel selected orders (animal available)", permissions=["change"])
    def cancel(self, request: HttpRequest, queryset: QuerySet[Order]) -> None:
        _apply(request, queryset, lambda pk: services.order_cancel(order_id=pk), "cancelled")
