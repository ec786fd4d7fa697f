from enum import StrEnum


class WindowName(StrEnum):
    DAY = "day"
    MINUTE = "minute"

    def __str__(self) -> str:
        return str(self.value)
