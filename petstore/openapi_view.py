"""``GET /v1/openapi.json``: the document, built once per process for each server that serves it
(its scheme and host, which it lists first: ``petstore.openapi.list_this_server_first``) and
each format asked for, then served from memory with a strong ``ETag``; an ``If-None-Match``
naming it is answered ``304``. It is public, so it must cost what a refused request costs.

It takes no parameters: drf-spectacular's own ``get`` would write ``?version=`` into
``info.version`` and switch language on ``?lang=``."""

from __future__ import annotations

import hashlib
from typing import Any, NamedTuple

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpResponse, HttpResponseNotModified
from drf_spectacular.settings import spectacular_settings
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularJSONAPIView
from rest_framework.request import Request

from petstore.conditional import matches

# Servers and formats kept: ALLOWED_HOSTS bounds the servers, this bounds a host list of "*".
MAX_KEPT = 32
# A client may keep the document but asks again, with its tag, before using it.
CACHE_CONTROL = "no-cache"


TITLE = spectacular_settings.TITLE


class Document(NamedTuple):
    body: bytes
    etag: str


_built: dict[tuple[str, str], Document] = {}


@receiver(setting_changed)
def _forget(**_: Any) -> None:
    """A changed setting may change the document: tests change them, a serving process never."""
    _built.clear()


class OpenApiView(SpectacularJSONAPIView):
    @extend_schema(exclude=True)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        document = self.document(request)
        if matches(request.headers.get("If-None-Match", ""), document.etag):
            response: HttpResponse = HttpResponseNotModified()
        else:
            response = HttpResponse(document.body, content_type=request.accepted_media_type)
            response["Content-Disposition"] = f'inline; filename="{TITLE}.json"'
        response["ETag"] = document.etag
        response["Cache-Control"] = CACHE_CONTROL
        return response

    def document(self, request: Request) -> Document:
        """This server's document in the format asked for: built by the first request for it."""
        key = (request.build_absolute_uri("/v1"), request.accepted_media_type)
        found = _built.get(key)
        if found is None:
            found = self.build(request)
            if len(_built) < MAX_KEPT:
                _built[key] = found
        return found

    def build(self, request: Request) -> Document:
        generator = self.generator_class(urlconf=self.urlconf, patterns=self.patterns)
        data = generator.get_schema(request=request, public=self.serve_public)
        renderer = request.accepted_renderer
        body = renderer.render(data, request.accepted_media_type, self.get_renderer_context())
        return Document(body, f'"{hashlib.sha256(body).hexdigest()[:32]}"')
