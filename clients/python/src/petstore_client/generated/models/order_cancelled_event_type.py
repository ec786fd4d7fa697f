from enum import StrEnum


class OrderCancelledEventType(StrEnum):
    ORDER_CANCELLED = "order.cancelled"

    def __str__(self) -> str:
        return str(self.value)
