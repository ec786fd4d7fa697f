"""Orders in the admin: the shelter staff's approve, deliver and cancel, from the list for many
orders and from an order's own page for one, through the same services either way. Deliver and
cancel cannot be undone, so both ask first on a page of their own. No order is deleted (cancel
is the way out), and the form writes only the hand-over date."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse

from petstore.admin import SavesItsFieldsOnly, clipped, short_date
from petstore.exceptions import DomainError
from store import services
from store.models import Order, OrderStatus


@dataclass(frozen=True)
class Move:
    """One step of the workflow as staff take it: its service, and what the confirmation page
    warns of (none for a step that can be undone, which is taken at once)."""

    name: str
    label: str
    becomes: str
    done: str
    service: Callable[..., Order]
    warning: str = ""


MOVES = {
    move.name: move
    for move in (
        Move(
            name="approve",
            label="Approve",
            becomes=OrderStatus.APPROVED,
            done="approved",
            service=services.order_approve,
        ),
        Move(
            name="deliver",
            label="Deliver…",
            becomes=OrderStatus.DELIVERED,
            done="delivered",
            service=services.order_deliver,
            warning="Each animal is handed over and sold, its order complete. "
            "This cannot be undone.",
        ),
        Move(
            name="cancel",
            label="Cancel order…",
            becomes=OrderStatus.CANCELLED,
            done="cancelled",
            service=services.order_cancel,
            warning="Each adoption is called off and its animal available again. "
            "This cannot be undone.",
        ),
    )
}


def moved_message(orders: list[tuple[int, str]], done: str) -> str:
    """``Order 12 for Ziggy approved.``, or ``Orders 12 (Ziggy), 13 (Rex) approved.``"""
    if len(orders) == 1:
        (pk, name), *_ = orders
        return f"Order {pk} for {name} {done}."
    return f"Orders {', '.join(f'{pk} ({name})' for pk, name in orders)} {done}."


@admin.register(Order)
class OrderAdmin(SavesItsFieldsOnly):
    # Status first after the number: it is what staff act on here.
    list_display = ("id", "status", "pet_name", "account_name", "ship", "created")
    list_filter = ("status",)
    search_fields = ("pet__name", "account__name")
    list_select_related = ("pet", "account")
    readonly_fields = ("account", "pet", "status", "quantity", "created_at", "updated_at")
    actions = ("approve", "deliver", "cancel")
    change_form_template = "admin/store/order/change_form.html"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # orders are placed through the API, by the adopting account

    def has_delete_permission(self, request: HttpRequest, obj: Order | None = None) -> bool:
        return False  # cancel instead: it frees the animal and tells the account

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
    def approve(self, request: HttpRequest, queryset: QuerySet[Order]) -> HttpResponse | None:
        return self._from_list(request, queryset, MOVES["approve"])

    @admin.action(description="Deliver selected orders (animal sold)…", permissions=["change"])
    def deliver(self, request: HttpRequest, queryset: QuerySet[Order]) -> HttpResponse | None:
        return self._from_list(request, queryset, MOVES["deliver"])

    @admin.action(description="Cancel selected orders (animal available)…", permissions=["change"])
    def cancel(self, request: HttpRequest, queryset: QuerySet[Order]) -> HttpResponse | None:
        return self._from_list(request, queryset, MOVES["cancel"])

    def _from_list(
        self, request: HttpRequest, queryset: QuerySet[Order], move: Move
    ) -> HttpResponse | None:
        if move.warning and "confirm" not in request.POST:
            return self._confirm(request, queryset, move, from_list=True)
        self._take(request, queryset, move)
        return None  # back to the list, as it was filtered

    def get_urls(self) -> list[Any]:
        return [
            path(
                f"<int:order_id>/{move.name}/",
                self.admin_site.admin_view(self.move_view),
                {"move": move.name},
                name=f"store_order_{move.name}",
            )
            for move in MOVES.values()
        ] + super().get_urls()

    def move_view(self, request: HttpRequest, order_id: int, move: str) -> HttpResponse:
        """One order's move, from its page: a POST takes it (once confirmed, if it asks);
        anything else shows what it would do."""
        order = get_object_or_404(Order, pk=order_id)
        if not self.has_change_permission(request, order):
            raise PermissionDenied
        step = MOVES[move]
        orders = Order.objects.filter(pk=order.pk)
        if request.method == "POST" and ("confirm" in request.POST or not step.warning):
            self._take(request, orders, step)
            return HttpResponseRedirect(reverse("admin:store_order_change", args=[order.pk]))
        return self._confirm(request, orders, step, from_list=False)

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        order = self.get_object(request, object_id)
        moves = []
        if order is not None and self.has_change_permission(request, order):
            moves = [
                (move.label, reverse(f"admin:store_order_{move.name}", args=[order.pk]))
                for move in MOVES.values()
                if order.can_become(move.becomes)
            ]
        return super().change_view(
            request, object_id, form_url, {**(extra_context or {}), "moves": moves}
        )

    def _take(self, request: HttpRequest, orders: QuerySet[Order], move: Move) -> None:
        """``move`` for each order, each in its own transaction; those it was refused for are
        reported one by one, after the ones it moved."""
        moved, refused = [], []
        for pk, name in orders.order_by("pk").values_list("pk", "pet__name"):
            try:
                order = move.service(order_id=pk)
            except DomainError as exc:
                refused.append(exc.message)
                continue
            self.log_change(request, order, move.done.capitalize())
            moved.append((pk, name))
        if moved:
            self.message_user(request, moved_message(moved, move.done), messages.SUCCESS)
        for reason in refused:
            self.message_user(request, reason, messages.ERROR)

    def _confirm(
        self, request: HttpRequest, orders: QuerySet[Order], move: Move, *, from_list: bool
    ) -> TemplateResponse:
        rows = [
            (order, order.can_become(move.becomes))
            for order in orders.select_related("pet", "account").order_by("pk")
        ]
        one = rows[0][0] if len(rows) == 1 else None
        title = (
            f"{move.name.capitalize()} order {one.pk} for {one.pet.name}?"
            if one is not None
            else f"{move.name.capitalize()} these {len(rows)} orders?"
        )
        back = (
            reverse("admin:store_order_changelist")
            if from_list
            else reverse("admin:store_order_change", args=[rows[0][0].pk])
        )
        return TemplateResponse(
            request,
            "admin/store/order/confirm_move.html",
            {
                **self.admin_site.each_context(request),
                "title": title,
                "opts": self.model._meta,
                "move": move,
                "orders": rows,
                "movable": any(can for _, can in rows),
                "order": None if from_list else one,
                "back_url": back,
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            },
        )
