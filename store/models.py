from __future__ import annotations

from django.db import models
from django.db.models import Q

from apikeys.models import Account
from pets.models import Pet


class OrderStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    APPROVED = "approved", "Approved"
    DELIVERED = "delivered", "Delivered"
    CANCELLED = "cancelled", "Cancelled"


# An order is approved by the shelter, then the animal is handed over (delivered); until the
# hand-over either side may cancel. Delivered and cancelled are final.
ORDER_STATUS_TRANSITIONS: dict[str, frozenset[str]] = {
    OrderStatus.PENDING: frozenset({OrderStatus.APPROVED, OrderStatus.CANCELLED}),
    OrderStatus.APPROVED: frozenset({OrderStatus.DELIVERED, OrderStatus.CANCELLED}),
    OrderStatus.DELIVERED: frozenset(),
    OrderStatus.CANCELLED: frozenset(),
}
OPEN_STATUSES = (OrderStatus.PENDING, OrderStatus.APPROVED)


class OrderQuerySet(models.QuerySet["Order"]):
    def open(self) -> OrderQuerySet:
        """Orders that still hold their animal: not yet delivered or cancelled."""
        return self.filter(status__in=OPEN_STATUSES)


class Order(models.Model):
    """An adoption: one account asking for one animal."""

    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="orders")
    pet = models.ForeignKey(Pet, on_delete=models.PROTECT, related_name="orders")
    quantity = models.PositiveSmallIntegerField(default=1, editable=False)
    ship_date = models.DateTimeField(
        null=True, blank=True, help_text="When the animal was (or will be) handed over."
    )
    status = models.CharField(
        max_length=16, choices=OrderStatus.choices, default=OrderStatus.PENDING
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = OrderQuerySet.as_manager()

    class Meta:
        ordering = ("id",)
        indexes = [
            models.Index(fields=("account", "id"), name="order_account_id_idx"),
            models.Index(fields=("account", "status", "id"), name="order_account_status_id_idx"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(quantity=1), name="order_quantity_is_one"),
            # However the workflow is reached, an animal is in at most one open adoption.
            models.UniqueConstraint(
                fields=("pet",),
                condition=Q(status__in=OPEN_STATUSES),
                name="order_one_open_order_per_pet",
            ),
        ]

    def __str__(self) -> str:
        return f"Order #{self.pk} for {self.pet}"

    @property
    def complete(self) -> bool:
        return self.status == OrderStatus.DELIVERED

    def can_become(self, status: str) -> bool:
        return status in ORDER_STATUS_TRANSITIONS[self.status]
