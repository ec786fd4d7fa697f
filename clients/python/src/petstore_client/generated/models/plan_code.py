from enum import StrEnum


class PlanCode(StrEnum):
    BUSINESS = "business"
    ENTERPRISE = "enterprise"
    FREE = "free"
    PRO = "pro"

    def __str__(self) -> str:
        return str(self.value)
