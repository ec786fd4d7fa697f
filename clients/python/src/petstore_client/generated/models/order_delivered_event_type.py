from enum import StrEnum


class OrderDeliveredEventType(StrEnum):
    ORDER_DELIVERED = "order.delivered"

    def __str__(self) -> str:
        return str(self.value)
