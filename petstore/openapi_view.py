"""``GET /v1/openapi.json``: the document, built once per process for each format asked for
and each server the settings list (``SPECTACULAR_SETTINGS["SERVERS"]``) that serves it, then
served from memory with a strong ``ETag``; an ``If-None-Match`` naming it is answered ``304``.
It is public, so it must cost what a refused request costs, whatever ``Host`` it names.

The server that serves it comes first in ``servers`` (``petstore.openapi.list_this_server_first``),
port included, so that the docs page's "Try it out" calls the instance it came from. That URL is
the document's one part that depends on the request, and nothing checks a Host's port: so each
build writes a placeholder there, and each request puts its own URL in the bytes kept.

It takes no parameters: drf-spectacular's own ``get`` would write ``?version=`` into
``info.version`` and switch language on ``?lang=``."""

from __future__ import annotations

import hashlib
import json
from typing import Any, NamedTuple

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpResponse, HttpResponseNotModified
from drf_spectacular.settings import spectacular_settings
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularJSONAPIView
from rest_framework.request import Request

from petstore.conditional import matches

# Written where this server's URL goes: a URL no request can name (``.invalid``, RFC 2606).
PLACEHOLDER = "https://this-server.invalid/v1"
# A client may keep the document but asks again, with its tag, before using it.
CACHE_CONTROL = "no-cache"


TITLE = spectacular_settings.TITLE


class Document(NamedTuple):
    """A build: its bytes, with the placeholder for this server's URL, and their digest."""

    body: bytes
    digest: str

    def etag(self, here: str) -> str:
        # The bytes served are this document's with ``here`` written in: named by both.
        return f'"{hashlib.sha256(f"{self.digest} {here}".encode()).hexdigest()[:32]}"'

    def body_for(self, here: str) -> bytes:
        return self.body.replace(_json(PLACEHOLDER), _json(here), 1)


def _json(url: str) -> bytes:
    return json.dumps(url).encode()


# By (the listed server it is, or "" for any other, format): a few entries at most.
_built: dict[tuple[str, str], Document] = {}


@receiver(setting_changed)
def _forget(**_: Any) -> None:
    """A changed setting may change the document: tests change them, a serving process never."""
    _built.clear()


class OpenApiView(SpectacularJSONAPIView):
    @extend_schema(exclude=True)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        here = request.build_absolute_uri("/v1")
        document = self.document(request, here)
        etag = document.etag(here)
        if matches(request.headers.get("If-None-Match", ""), etag):
            response: HttpResponse = HttpResponseNotModified()
        else:
            body = document.body_for(here)
            response = HttpResponse(body, content_type=request.accepted_media_type)
            response["Content-Disposition"] = f'inline; filename="{TITLE}.json"'
        response["ETag"] = etag
        response["Cache-Control"] = CACHE_CONTROL
        return response

    def document(self, request: Request, here: str) -> Document:
        """The document for this server in the format asked for: a server the settings list
        is not listed again, so it has its own; every other shares one."""
        listed = here if here in _listed_servers() else ""
        key = (listed, request.accepted_media_type)
        found = _built.get(key)
        if found is None:
            found = _built[key] = self.build(request)
        return found

    def build(self, request: Request) -> Document:
        generator = self.generator_class(urlconf=self.urlconf, patterns=self.patterns)
        data = generator.get_schema(request=request, public=self.serve_public)
        data["servers"][0]["url"] = PLACEHOLDER
        renderer = request.accepted_renderer
        body = renderer.render(data, request.accepted_media_type, self.get_renderer_context())
        return Document(body, hashlib.sha256(body).hexdigest())


def _listed_servers() -> set[str]:
    return {server["url"] for server in spectacular_settings.SERVERS}
