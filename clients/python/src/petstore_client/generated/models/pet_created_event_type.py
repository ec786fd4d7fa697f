from enum import StrEnum


class PetCreatedEventType(StrEnum):
    PET_CREATED = "pet.created"

    def __str__(self) -> str:
        return str(self.value)
