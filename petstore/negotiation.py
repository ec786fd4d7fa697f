from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.parsers import BaseParser
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request


class JsonOnlyNegotiation(DefaultContentNegotiation):
    """The API speaks JSON, and reads only what says it is JSON."""

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: Any = None
    ) -> tuple[BaseRenderer, str]:
        # DRF's default answers 406 to ``Accept: text/html`` (a browser); a JSON body the client
        # can read is more useful than an error about the format it would have preferred.
        renderer = next(iter(renderers))
        return renderer, renderer.media_type

    def select_parser(self, request: Request, parsers: Iterable[BaseParser]) -> BaseParser | None:
        # DRF matches media ranges both ways, so ``*/*`` and ``application/*`` would be parsed
        # as JSON; a body is JSON only when it says exactly so (parameters such as charset
        # aside). None makes DRF answer 415.
        media_type = request.content_type.partition(";")[0].strip().lower()
        for parser in parsers:
            if parser.media_type == media_type:
                return parser
        return None
