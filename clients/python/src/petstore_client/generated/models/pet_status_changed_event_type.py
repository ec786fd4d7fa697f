from enum import StrEnum


class PetStatusChangedEventType(StrEnum):
    PET_STATUS_CHANGED = "pet.status_changed"

    def __str__(self) -> str:
        return str(self.value)
