from enum import StrEnum


class CategoryCreatedEventType(StrEnum):
    CATEGORY_CREATED = "category.created"

    def __str__(self) -> str:
        return str(self.value)
