"""Conditional GETs (RFC 9110 §13): a strong ``ETag`` on the answers partners poll, and ``304``
for an ``If-None-Match`` that names the current one, so that polling an unchanged answer costs
little and spends nothing of the day window (``apikeys.admission`` gives the day its count back).

The tag is made from the answer's bytes, so it is right in every mode, Redis or not. To answer
304 without building the answer, a conditional request reads, in one round trip, the versions
that the viewset says its answer shows (its hooks: ``petstore.viewsets.ConditionalViewSet``;
writers renew them once their change has committed, ``changed``) and the tag last served for
the same URL and caller under them: while the versions are unchanged, so is the answer. They
are read before the view's queries, so that a tag is never recorded under versions newer than
its answer.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import uuid
from collections.abc import Callable, Iterable
from functools import partial, wraps
from typing import Any, NamedTuple

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.template.response import SimpleTemplateResponse
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

from petstore import redis, representation
from petstore.callers import Caller, admitted_caller
from petstore.openapi import response_headers
from petstore.viewsets import ConditionalViewSet, Validators

logger = logging.getLogger("petstore.conditional")

# Names in Redis (after settings.REDIS_KEY_PREFIX): a version's, a tag served's.
VERSION = "etag:version:"  # + the version's name
SEEN = "etag:seen:"  # + a digest of the URL and the caller, a part a LINE
LINE = "\n"
# How long a tag served is remembered for its URL and caller: a day of polling.
SEEN_SECONDS = 86_400
# The headers this layer reads and writes.
ETAG = "ETag"
LINK = "Link"
VARY = "Vary"
# MD5, the quickest of hashlib's here: neither a tag nor a record's name needs resistance to
# crafted collisions.
md5 = partial(hashlib.md5, usedforsecurity=False)
# Versions this process could not write: until it can, it decides no 304 before the view.
_unsaved: set[str] = set()


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
    try:
        client.mset({_version_name(name): uuid.uuid4().hex for name in wanted})
    except redis.RedisError:
        logger.warning("could not renew the versions %s: no 304 until they are", sorted(wanted))
        _unsaved.update(wanted)
        return
    _unsaved.difference_update(wanted)


def _version_name(name: str) -> str:
    """Where the version ``name`` is kept in Redis."""
    return f"{settings.REDIS_KEY_PREFIX}{VERSION}{name}"


def _read(versions: list[str], name: str) -> tuple[list[bytes], bytes | None] | None:
    """The values of the versions named ``versions`` and of ``name`` (None: it has none), in
    one round trip; or None when they cannot be trusted: no Redis, an outage, or a version this
    process failed to renew."""
    client = redis.client()
    if client is None or client.down_since is not None:
        return None
    if _unsaved:
        _renew(())
        if _unsaved:
            return None
    try:
        *values, last = client.mget([*versions, name])
        return [value or _made(client, versions[n]) for n, value in enumerate(values)], last
    except redis.RedisError:
        return None


def _made(client: redis.RedisClient, version: str) -> bytes:
    """A value for ``version``, which has none: never written, or lost (Redis restarted empty).
    Fresh, so that no tag was recorded under it. Two requests that find it missing at once each
    write their own; the tag recorded under the one overwritten is built once more."""
    fresh = uuid.uuid4().hex.encode()
    client.set(version, fresh)
    return fresh


def _remember(name: str, value: bytes) -> None:
    client = redis.client()
    if client is not None:
        with contextlib.suppress(redis.RedisError):
            client.set(name, value, ex=SEEN_SECONDS)


def conditional(
    viewset: type[ConditionalViewSet], actions: dict[str, str]
) -> Callable[..., HttpResponse]:
    """``viewset.as_view(actions)``, answering its GETs conditionally: its hooks
    (``ConditionalViewSet``) say who may be answered and what the answer shows."""
    view = viewset.as_view({**actions})

    # The work is a module function's, run on each request, so that what runs it is a request
    # (the mutation run, docs/mutation.md, maps each function to the tests that call it).
    @wraps(view)
    def answer(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        return _answer(view, viewset, actions, request, **kwargs)

    return answer


def _answer(
    view: Callable[..., HttpResponse],
    viewset: type[ConditionalViewSet],
    actions: dict[str, str],
    request: HttpRequest,
    **kwargs: Any,
) -> HttpResponse:
    asked = request.META.get("HTTP_IF_NONE_MATCH")
    if not asked or request.method not in ("GET", "HEAD"):
        return _tagged(view(request, **kwargs))
    # A tag recorded under the versions read now names the current answer: one that exists
    # (a 200), which is what "*" asks for too.
    seen = _last_served(viewset, actions["get"], request)
    if seen is not None and seen.tag is not None and matches(asked, seen.tag):
        return not_modified(seen.tag)
    response = _tagged(view(request, **kwargs))
    tag = response.get(ETAG)
    if tag is None:
        return response
    if seen is not None and seen.tag != tag:
        _remember(seen.name, seen.versions + tag.encode())
    return not_modified(tag) if matches(asked, tag) else response


def _last_served(
    viewset: type[ConditionalViewSet], action: str, request: HttpRequest
) -> Seen | None:
    """What was last served for the request, for a caller allowed to see the answer, when the
    viewset says what its answer shows."""
    caller = admitted_caller(request)
    if caller is None or viewset.required_scopes.get(action) not in caller.scope_set:
        return None
    return _seen(request, caller, viewset.versions(action, caller))


class Seen(NamedTuple):
    """The tag last served for a URL and a caller, if any under the versions read now."""

    name: str  # where it is kept
    versions: bytes  # the versions read now, each followed by a space
    tag: str | None  # None: none under them


def _seen(request: HttpRequest, caller: Caller, validators: Validators | None) -> Seen | None:
    if validators is None:
        return None
    # Who asks for what, a part a line: a tag served to one is never another's. (The query
    # string reads "None" where the server sent none.) And in which shape: a tag served before
    # a release changed the answer's fields is not today's, whatever the versions say.
    asker = LINE.join(
        [
            representation.shape(),
            request.path,
            str(request.META.get("QUERY_STRING")),
            str(caller.account_id),
            str(caller.is_publishable),
            *validators.values,
            *sorted(caller.scope_set),
        ]
    )
    name = f"{settings.REDIS_KEY_PREFIX}{SEEN}{md5(asker.encode()).hexdigest()}"
    read = _read([*map(_version_name, validators.versions)], name)
    if read is None:
        return None
    versions, last = read
    now = b" ".join(versions) + b" "
    tag = last[len(now) :].decode() if last is not None and last.startswith(now) else None
    return Seen(name, now, tag)


def _tagged(response: HttpResponse) -> HttpResponse:
    """``response`` with the tag of its bytes, when it is an answer (200)."""
    if response.status_code != 200:
        return response
    if isinstance(response, SimpleTemplateResponse):  # a DRF Response, rendered here
        response.render()
    digest = md5(response.content)
    # The Link is part of the answer a client keeps.
    link = response.get(LINK)
    if link is not None:
        digest.update(link.encode())
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
    # Its Cache-Control is the API's (petstore.cache_control): kept, but asked for again.
    response[ETAG] = tag
    if VARY in response:
        patch_vary_headers(response, ("Authorization",))
    else:  # the usual case, set without patch_vary_headers' parsing
        response[VARY] = "Authorization"


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
