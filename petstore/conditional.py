"""Conditional GETs (RFC 9110 §13): a strong ``ETag`` on the answers partners poll, and ``304``
for an ``If-None-Match`` that names the current one, so that polling an unchanged answer costs
little and spends nothing of the day window (``apikeys.admission`` gives the day its count back).

The tag is made from the answer's bytes, so it is right in every mode, Redis or not. To answer
304 without building the answer, a conditional request reads, in one round trip, the versions
that the view says its answer shows (its ``versions``; writers renew them once their change has
committed, ``changed``) and the tag last served for the same URL and caller under them: while
the versions are unchanged, so is the answer. They are read before the view's queries, so that a
tag is never recorded under versions newer than its answer.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import uuid
from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any, NamedTuple, Protocol

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

from petstore import redis
from petstore.cache_control import PRIVATE
from petstore.callers import Caller, admitted_caller
from petstore.openapi import response_headers

logger = logging.getLogger("petstore.conditional")

# Names in Redis (after settings.REDIS_KEY_PREFIX): a version's, a tag served's.
VERSION = "etag:version:"  # + the version's name
SEEN = "etag:seen:"  # + a digest of the URL and the caller
# How long a tag served is remembered for its URL and caller: a day of polling.
SEEN_SECONDS = 86_400
# Versions this process could not write: until it can, it decides no 304 before the view.
_unsaved: set[str] = set()


class Validators(NamedTuple):
    """What a view's answer depends on besides its URL and the calling key."""

    versions: tuple[str, ...]  # names given to ``changed`` by whoever writes what it shows
    values: tuple[str, ...] = ()  # anything else, such as the hour a feed is kept from


class Versioned(Protocol):
    def __call__(self, action: str, caller: Caller) -> Validators | None: ...


def changed(*names: str) -> None:
    """What the versions ``names`` describe has changed: once the current transaction commits
    (at once outside one), each gets a new random value, which no tag made before can match."""
    if names:
        transaction.on_commit(lambda: _renew(names))


def _renew(names: Iterable[str]) -> None:
    client = redis.client()
    if client is None:
        return
    wanted = {*names, *_unsaved}
    if not wanted:
        return
    pairs = [part for name in wanted for part in (_name(name), uuid.uuid4().hex)]
    try:
        client.execute("MSET", *pairs)
    except redis.RedisError:
        logger.warning("could not renew the versions %s: no 304 until they are", sorted(wanted))
        _unsaved.update(wanted)
        return
    _unsaved.difference_update(wanted)


def _read(names: list[str], versions: int) -> list[bytes | None] | None:
    """The values of ``names``, the first ``versions`` of them versions, the others None where
    there is none; or None when they cannot be trusted: no Redis, an outage, or a version this
    process failed to renew."""
    client = redis.client()
    if client is None or client.down_since is not None:
        return None
    if _unsaved:
        _renew(())
        if _unsaved:
            return None
    try:
        values: list[bytes | None] = client.execute("MGET", *names)
        for n, value in enumerate(values[:versions]):
            if value is None:
                # Never written, or lost (Redis restarted empty): a fresh value, which no tag
                # was recorded under, unless another request has just set one.
                fresh = uuid.uuid4().hex.encode()
                current = client.execute("SET", names[n], fresh, "NX", "GET")
                values[n] = current if isinstance(current, bytes) else fresh
    except redis.RedisError:
        return None
    return values


def _remember(name: str, value: bytes) -> None:
    client = redis.client()
    if client is not None:
        with contextlib.suppress(redis.RedisError):
            client.execute("SET", name, value, "EX", SEEN_SECONDS)


def _name(name: str) -> str:
    return f"{settings.REDIS_KEY_PREFIX}{VERSION}{name}"


def conditional(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``view``, a viewset's ``as_view()``, answering its GETs conditionally; the viewset's
    ``versions(action, caller)`` says what its answers show (without one, or None: a 304 is
    decided once the answer is made)."""

    # The work is a module function's, run on each request, so that what runs it is a request
    # (the mutation run, docs/mutation.md, maps each function to the tests that call it).
    @wraps(view)
    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return _answer(view, request, *args, **kwargs)

    return answer


def _answer(
    view: Callable[..., HttpResponse], request: HttpRequest, *args: Any, **kwargs: Any
) -> HttpResponse:
    asked = request.META.get("HTTP_IF_NONE_MATCH", "")
    if not asked or request.method not in ("GET", "HEAD"):
        return _tagged(view(request, *args, **kwargs))
    seen = _last_served(view, request)
    # "*" names any current answer: only the view knows whether there is one (a 404).
    if seen is not None and seen.tag and asked.strip() != "*" and matches(asked, seen.tag):
        return not_modified(seen.tag)
    response = _tagged(view(request, *args, **kwargs))
    tag = response.get("ETag")
    if tag is None:
        return response
    if seen is not None and seen.tag != tag:
        _remember(seen.name, seen.versions + tag.encode())
    return not_modified(tag) if matches(asked, tag) else response


def _last_served(view: Callable[..., HttpResponse], request: HttpRequest) -> Seen | None:
    """What was last served for the request, for a caller allowed to see the answer, when the
    view's viewset says what its answer shows."""
    viewset = view.cls  # type: ignore[attr-defined]
    action = view.actions.get("get")  # type: ignore[attr-defined]
    versioned: Versioned | None = getattr(viewset, "versions", None)
    caller = admitted_caller(request)
    if versioned is None or caller is None:
        return None
    if viewset.required_scopes.get(action) not in caller.scope_set:
        return None
    return _seen(request, caller, versioned(action, caller))


class Seen(NamedTuple):
    """The tag last served for a URL and a caller, if any under the versions read now."""

    name: str  # where it is kept
    versions: bytes  # the versions read now, each followed by a space
    tag: str  # "": none under them


def _seen(request: HttpRequest, caller: Caller, validators: Validators | None) -> Seen | None:
    if validators is None:
        return None
    asker = [
        request.path,
        request.META.get("QUERY_STRING", ""),
        str(caller.account_id),
        ",".join(sorted(caller.scope_set)),
        "p" if caller.is_publishable else "s",
        *validators.values,
    ]
    asker_digest = hashlib.md5("\n".join(asker).encode(), usedforsecurity=False).hexdigest()
    name = f"{settings.REDIS_KEY_PREFIX}{SEEN}{asker_digest}"
    values = _read([*map(_name, validators.versions), name], len(validators.versions))
    if values is None:
        return None
    *versions, last = values
    now = b" ".join(value or b"" for value in versions) + b" "
    tag = last[len(now) :].decode() if last is not None and last.startswith(now) else ""
    return Seen(name, now, tag)


def _tagged(response: HttpResponse) -> HttpResponse:
    """``response`` with the tag of its bytes, when it is an answer (200)."""
    if response.status_code != 200:
        return response
    render = getattr(response, "render", None)
    if render is not None:  # a DRF Response, rendered here rather than by the handler
        render()
    # MD5, the quickest of hashlib's here: a tag needs no resistance to crafted collisions.
    # The Link is part of the answer a client keeps.
    digest = hashlib.md5(response.content, usedforsecurity=False)
    digest.update(response.get("Link", "").encode())
    _mark(response, f'"{digest.hexdigest()}"')
    return response


def matches(asked: str, tag: str) -> bool:
    """Whether ``If-None-Match: asked`` names ``tag``: ``*``, or one of its list by the weak
    comparison RFC 9110 §13.1.2 asks for (``W/"x"`` names ``"x"``)."""
    if not asked:
        return False
    tags = parse_etags(asked)
    return tags == ["*"] or tag in (each.removeprefix("W/") for each in tags)


def _mark(response: HttpResponse, tag: str) -> None:
    response["ETag"] = tag
    # A client may keep the answer but must ask again, with the tag, before using it.
    response["Cache-Control"] = PRIVATE
    if "Vary" in response:
        patch_vary_headers(response, ("Authorization",))
    else:  # the usual case, set without patch_vary_headers' parsing
        response["Vary"] = "Authorization"


def not_modified(tag: str) -> HttpResponse:
    response = HttpResponseNotModified()
    _mark(response, tag)
    return response


# What each conditional GET declares in the document (its extend_schema).
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    str,
    OpenApiParameter.HEADER,
    description="The `ETag` of an answer kept: `304` with no body if it is still current "
    "(a list of tags, `*` and weak tags are understood). A `304` spends nothing of the day "
    "window; it counts in the minute's.",
)
PARAMETERS = [IF_NONE_MATCH, *response_headers("ETag", "Vary", on=(200, 304))]
RESPONSES = {304: OpenApiResponse(description="Not modified: the `ETag` sent is current.")}
