"""The base of the viewsets whose GETs ``petstore.conditional`` answers: the hooks that layer
calls before the view is made, declared here with their defaults, as DRF declares the hooks of
its views (``get_queryset``, ``get_serializer_class``) on ``GenericAPIView``. They are read from
the class, on the class's own arguments, so that a 304 is decided without making the view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, NamedTuple

from rest_framework import viewsets

from petstore.callers import Caller


class Validators(NamedTuple):
    """What a view's answer depends on besides its URL and the calling key."""

    versions: tuple[str, ...]  # names given to ``changed`` by whoever writes what it shows
    values: tuple[str, ...] = ()  # anything else, such as the hour a feed is kept from


# A viewset whose GETs are answered conditionally (``petstore.conditional.conditional``). A
# comment, not a docstring: drf-spectacular would give it as the description of every operation
# of a subclass that has none of its own.
class ConditionalViewSet(viewsets.GenericViewSet):
    # The scope each action needs (apikeys.scopes reads it for every view). A 304 is decided
    # before the view only for a caller that holds its GET's: any other is the view's to refuse.
    required_scopes: ClassVar[Mapping[str, str | None]] = {}

    @staticmethod
    def versions(action: str, caller: Caller) -> Validators | None:
        """What the answer of ``action`` to ``caller`` shows: the versions that change with it
        (renewed by whoever writes it, through ``petstore.conditional.changed``) and any other
        value it depends on. None, the default: nothing says when it changes but its bytes, so a
        304 is decided once the answer is made."""
        return None
