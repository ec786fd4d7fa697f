"""The API's JSON: orjson, several times faster than the standard library's encoder."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from django.http import HttpResponse
from rest_framework.renderers import BaseRenderer
from rest_framework.utils.encoders import JSONEncoder

# What orjson does not know (lazy translations in DRF's messages, Decimal, …), DRF's encoder does.
_fallback = JSONEncoder().default


class JSONRenderer(BaseRenderer):
    media_type = "application/json"
    format = "json"
    charset = None  # JSON is UTF-8 by definition (RFC 8259): no charset parameter

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        return orjson.dumps(data, default=_fallback)


class JsonAnswer(HttpResponse):
    """A JSON body encoded at once: what the read paths answer.

    DRF's ``Response`` leaves its body to content negotiation and Django's template-response
    machinery, to be rendered on the way out; the API has one format (``petstore.negotiation``),
    so reads skip both (its price: README, "Choices worth knowing"). Writes and errors still
    answer through DRF: its exception handler, and the rendering the idempotency wrapper keeps.
    """

    def __init__(
        self, data: Any, *, status: int = 200, headers: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(
            orjson.dumps(data, default=_fallback),
            status=status,
            headers=headers,
            content_type=JSONRenderer.media_type,
        )
