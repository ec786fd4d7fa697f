"""What the domain's workflows refuse, in the domain's own terms.

Services raise these; they know nothing of HTTP. ``petstore.errors`` turns each into the Error
body for the API, and the admin shows its message to staff.
"""

from __future__ import annotations


class DomainError(Exception):
    """A workflow refused; ``message`` says why, in words for the person who asked."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Conflict(DomainError):
    """The resource's current state does not allow this (an order for an animal on hold)."""


class InvalidReference(DomainError):
    """A field names something that does not exist (an order for no animal)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
