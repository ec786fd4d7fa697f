"""The OpenAPI document's events: a drf-spectacular postprocessing hook."""

from __future__ import annotations

from typing import Any

from events.examples import example_event


def inline_event_types(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """Each type's schema in ``Event`` gives its ``type`` inline, the one value it takes, where
    drf-spectacular's enum hook (run just before) makes a component of each one-value enum; and
    shows an example event of the type."""
    schemas = result["components"]["schemas"]
    mapping = schemas["Event"]["discriminator"]["mapping"] if "Event" in schemas else {}
    for kind, ref in mapping.items():
        schema = schemas[ref.rsplit("/", 1)[-1]]
        schema["example"] = example_event(kind)
        field = schema["properties"]["type"]
        enum = field.pop("allOf")[0]["$ref"].rsplit("/", 1)[-1]
        del schemas[enum]
        field.update({"type": "string", "enum": [kind]})
    return result
