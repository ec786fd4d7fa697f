from enum import StrEnum


class OrderPlacedEventType(StrEnum):
    ORDER_PLACED = "order.placed"

    def __str__(self) -> str:
        return str(self.value)
