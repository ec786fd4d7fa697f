"""A reader follows a request top to bottom: from the first middleware to its SQL, a warm
``GET /v1/pets`` enters each of the project's modules once and never goes back to one it left."""

from __future__ import annotations

import sys
from http import HTTPStatus
from pathlib import Path
from types import FrameType
from typing import Any

from django.db import connection

ROOT = str(Path(__file__).resolve().parent.parent) + "/"
OURS = ("apikeys/", "pets/", "petstore/", "store/")


def modules_entered_until_the_sql(client: Any, path: str, headers: dict[str, str]) -> list[str]:
    """The project's modules the request's calls enter from other modules, in order, each stay
    once."""
    stays: list[str] = []
    sql_ran = False

    def at_the_sql(execute: Any, *args: Any) -> Any:
        nonlocal sql_ran
        sql_ran = True
        return execute(*args)

    def on_call(frame: FrameType, event: str, arg: Any) -> None:
        if sql_ran or event != "call" or not frame.f_code.co_filename.startswith(ROOT):
            return
        module = frame.f_code.co_filename.removeprefix(ROOT)
        # A call from within the module is the reader reading on, not coming back to it.
        caller = frame.f_back.f_code.co_filename if frame.f_back is not None else ""
        if caller == frame.f_code.co_filename:
            return
        if module.startswith(OURS) and (not stays or stays[-1] != module):
            stays.append(module)

    with connection.execute_wrapper(at_the_sql):
        sys.setprofile(on_call)
        try:
            response = client.get(path, headers=headers)
        finally:
            sys.setprofile(None)
    assert response.status_code == HTTPStatus.OK
    return stays


def test_listing_pets_enters_each_module_once(client, auth, make_pet):
    make_pet("Rex")
    # The key read (counted by its record) and kept; then checked as a kept key, the SQL
    # compiled, and what the listing's query may name read from its declarations.
    for _ in range(2):
        client.get("/v1/pets?limit=20", headers=auth)

    stays = modules_entered_until_the_sql(client, "/v1/pets?limit=20", auth)

    assert [module for n, module in enumerate(stays) if module in stays[:n]] == [], "\n".join(stays)
    assert stays[0] == "petstore/requestlog.py"
    assert stays[-1] == "petstore/prepared.py"
    assert "apikeys/admission/admit.py" in stays
