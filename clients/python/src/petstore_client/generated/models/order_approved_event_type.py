from enum import StrEnum


class OrderApprovedEventType(StrEnum):
    ORDER_APPROVED = "order.approved"

    def __str__(self) -> str:
        return str(self.value)
