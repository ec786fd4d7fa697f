from enum import StrEnum


class EventType(StrEnum):
    CATEGORY_CREATED = "category.created"
    ORDER_APPROVED = "order.approved"
    ORDER_CANCELLED = "order.cancelled"
    ORDER_DELIVERED = "order.delivered"
    ORDER_PLACED = "order.placed"
    PET_CREATED = "pet.created"
    PET_STATUS_CHANGED = "pet.status_changed"
    USAGE_THRESHOLD = "usage.threshold"
    WEBHOOK_ENDPOINT_DISABLED = "webhook_endpoint.disabled"

    def __str__(self) -> str:
        return str(self.value)
