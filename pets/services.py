from __future__ import annotations

from pets.models import Pet, PetStatus


def pet_create(*, name: str, category_id: int, status: str = PetStatus.AVAILABLE) -> Pet:
    # One INSERT, atomic on its own: no transaction block (and its round trips) needed.
    return Pet.objects.create(name=name, category_id=category_id, status=status)
