from enum import StrEnum


class UsageThresholdEventType(StrEnum):
    USAGE_THRESHOLD = "usage.threshold"

    def __str__(self) -> str:
        return str(self.value)
