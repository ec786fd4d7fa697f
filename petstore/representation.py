"""The shape of every answer, as one digest: the OpenAPI document's schemas as this code builds
them. A deploy that adds, removes or changes a field changes it, with no version bumped by hand,
so that what was recorded of an earlier shape is never served for today's: a conditional GET's
tag (``petstore.conditional``) and an idempotent POST's stored answer (``petstore.idempotency``).
It is made once per process, on first use (a worker's warm-up asks for it)."""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

from django.core.signals import setting_changed
from django.dispatch import receiver


@functools.cache
def shape() -> str:
    """A digest of the schemas of every answer this code gives."""
    from drf_spectacular.generators import SchemaGenerator  # the URLconf, loaded by now

    schemas = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]
    encoded = json.dumps(schemas, sort_keys=True, default=str).encode()
    return hashlib.sha256(encoded, usedforsecurity=False).hexdigest()[:16]


@receiver(setting_changed)
def _forget(**_: Any) -> None:
    """A test's settings may change what the document holds (a window, an event type)."""
    shape.cache_clear()
