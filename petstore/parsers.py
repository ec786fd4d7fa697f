"""Strict JSON request bodies: a JSON object, UTF-8, at most PETSTORE_MAX_BODY_BYTES."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser
from rest_framework.request import Request

from petstore.errors import MalformedRequest, PayloadTooLarge

# Our bodies are flat objects; this leaves room for any structure a client might send by mistake
# while keeping every walk over the parsed value far from Python's recursion limit.
MAX_DEPTH = 32


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not valid JSON")


def _check_structure(data: Any) -> None:
    """Refuse nesting deeper than MAX_DEPTH and strings that are not Unicode text.

    JSON may escape a lone surrogate (``"\\ud800"``); Python decodes it into a str that no
    encoder can write back (UTF-8 output, PostgreSQL), so it is refused here, as I-JSON
    (RFC 7493) does, before anything quotes it back or stores it. Iterative on purpose: the
    value may be nested as deep as the decoder allowed.
    """
    pending: list[tuple[Any, int]] = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            if not value.isascii():
                try:
                    value.encode("utf-8")
                except UnicodeEncodeError:
                    raise MalformedRequest(
                        "The request body contains a lone surrogate (`\\ud800`-`\\udfff`), "
                        "which is not Unicode text."
                    ) from None
        elif isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                raise MalformedRequest(
                    f"The request body is nested more than {MAX_DEPTH} levels deep."
                )
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for name, item in items:
                if isinstance(name, str):
                    pending.append((name, depth))
                pending.append((item, depth + 1))


def _first_repeated(pairs: list[tuple[str, Any]]) -> str:
    seen: set[str] = set()
    for name, _ in pairs:
        if name in seen:
            return name
        seen.add(name)
    raise AssertionError("no name is repeated")


class StrictJSONParser(BaseParser):
    """DRF's JSONParser, plus the body limit, the rule that a body is one JSON object, and that
    an object names each key once (I-JSON): with a key named twice, which value was meant is a
    guess, and the decoder would silently keep the last.

    DRF reads the body from the stream itself, past Django's DATA_UPLOAD_MAX_MEMORY_SIZE, so
    the size limit is enforced here, before anything is read.
    """

    media_type = "application/json"

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        limit = settings.PETSTORE_MAX_BODY_BYTES
        request = (parser_context or {}).get("request")
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        if declared and declared.isdigit() and int(declared) > limit:
            raise PayloadTooLarge(f"The request body must be at most {limit // 1024} KiB.")
        raw = stream.read(limit + 1)
        if len(raw) > limit:
            raise PayloadTooLarge(f"The request body must be at most {limit // 1024} KiB.")
        repeated: list[str] = []

        def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
            value = dict(pairs)
            if len(value) != len(pairs) and not repeated:
                repeated.append(_first_repeated(pairs))
            return value

        try:
            data = json.loads(
                raw.decode("utf-8"), parse_constant=_reject_constant, object_pairs_hook=unique
            )
        except UnicodeDecodeError:
            raise MalformedRequest("The request body is not valid UTF-8.") from None
        except ValueError as exc:
            raise ParseError(f"The request body is not valid JSON: {exc}") from None
        except RecursionError:
            # Thousands of nested brackets exhaust the decoder before it finds anything wrong.
            raise MalformedRequest(
                f"The request body is nested more than {MAX_DEPTH} levels deep."
            ) from None
        if not isinstance(data, dict):
            raise MalformedRequest("The request body must be a JSON object.")
        # Checked first: a repeated name may be no Unicode text, and the refusal quotes it.
        _check_structure(data)
        if repeated:
            raise MalformedRequest(
                f"The request body names `{repeated[0]}` more than once in one object: "
                "send each field once."
            )
        return data


def json_object(request: Request) -> dict[str, Any]:
    """The parsed body of a request that must carry one; an empty body is refused."""
    data = request.data
    # DRF turns a request without a body into {} without calling any parser.
    if request.stream is None:
        raise MalformedRequest("The request body is empty: send a JSON object.")
    return data
