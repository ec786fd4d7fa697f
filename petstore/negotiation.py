from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request


class JsonOnlyNegotiation(DefaultContentNegotiation):
    """The API speaks JSON whatever the client's Accept header says.

    DRF's default answers 406 to ``Accept: text/html`` (a browser); a JSON body the client can
    read is more useful than an error about the format it would have preferred.
    """

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: Any = None
    ) -> tuple[BaseRenderer, str]:
        renderer = next(iter(renderers))
        return renderer, renderer.media_type
