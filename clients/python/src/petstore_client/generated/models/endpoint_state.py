from enum import StrEnum


class EndpointState(StrEnum):
    DISABLED = "disabled"
    HEALTHY = "healthy"
    PAUSED = "paused"

    def __str__(self) -> str:
        return str(self.value)
