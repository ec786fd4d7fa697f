"""Admission reads top to bottom: ``apikeys.admission.admit`` calls on the key's record and on
the client's address each in one stretch, whatever kind of request it admits, so that its walk
between admission's own modules goes back to a module it left at most once."""

from __future__ import annotations

import sys
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from apikeys import keys
from apikeys.keyring import keyring, record_name
from petstore import redis

ROOT = str(Path(__file__).resolve().parent.parent.parent) + "/"
ADMISSION = ("apikeys/admission/admit.py", "apikeys/records.py", "petstore/addresses.py")


def _module(frame: FrameType | None) -> str:
    return frame.f_code.co_filename.removeprefix(ROOT) if frame is not None else ""


def admission_walk(client: Any, headers: dict[str, str]) -> list[str]:
    """The admission modules a ``GET /v1/pets`` passes between, in order: each time one of them
    calls another, and each time the called one returns to it."""
    walk: list[str] = []

    def on_event(frame: FrameType, event: str, arg: Any) -> None:
        if event not in ("call", "return"):
            return
        here, there = _module(frame), _module(frame.f_back)
        if here not in ADMISSION or there not in ADMISSION or here == there:
            return
        to = here if event == "call" else there
        if not walk:
            walk.append(there if event == "call" else here)
        if walk[-1] != to:
            walk.append(to)

    sys.setprofile(on_event)
    try:
        client.get("/v1/pets?limit=20", headers=headers)
    finally:
        sys.setprofile(None)
    return walk


def returns_to_a_module_left(walk: list[str]) -> list[str]:
    return [module for n, module in enumerate(walk) if module in walk[:n]]


def bearer(raw: str, **headers: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {raw}", **headers}


@pytest.mark.parametrize(
    "kind",
    [
        "a key this process holds",
        "a key only Redis holds",
        "a key only PostgreSQL holds",
        "no key",
        "a token not shaped like a key",
        "a key nobody issued",
        "a publishable key from its origin",
        "a publishable key from another origin",
    ],
)
def test_admission_goes_back_at_most_once(client, api_key, make_key, make_pet, kind):
    make_pet("Rex")
    publishable = make_key(kind="publishable", origins=("https://shelter.example",))
    for raw in (api_key, publishable):
        client.get("/v1/pets", headers=bearer(raw, Origin="https://shelter.example"))
    headers = {
        "a key this process holds": bearer(api_key),
        "a key only Redis holds": bearer(api_key),
        "a key only PostgreSQL holds": bearer(api_key),
        "no key": {},
        "a token not shaped like a key": bearer("petstore_live_not-a-key"),
        "a key nobody issued": bearer(keys.generate_key()),
        "a publishable key from its origin": bearer(publishable, Origin="https://shelter.example"),
        "a publishable key from another origin": bearer(publishable, Origin="https://x.example"),
    }[kind]
    if kind != "a key this process holds":
        keyring.clear()
    if kind == "a key only PostgreSQL holds":
        redis.usable().execute("DEL", record_name(keys.digest(api_key)))

    walk = admission_walk(client, headers)

    assert walk[:1] in ([], ["apikeys/admission/admit.py"]), walk
    assert len(returns_to_a_module_left(walk)) <= 1, " > ".join(walk)


def test_the_address_is_asked_once(client, db):
    walk = admission_walk(client, {})

    assert walk == [
        "apikeys/admission/admit.py",
        "petstore/addresses.py",
        "apikeys/admission/admit.py",
    ]
