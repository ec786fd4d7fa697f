from enum import StrEnum


class ListOrdersStatus(StrEnum):
    APPROVED = "approved"
    CANCELLED = "cancelled"
    DELIVERED = "delivered"
    PENDING = "pending"

    def __str__(self) -> str:
        return str(self.value)
