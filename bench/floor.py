"""The floor: the same SQL and JSON as the service, with no framework on any request.

A bare WSGI app under the same gunicorn settings, one persistent psycopg connection per
worker, ``json.dumps``. What the service does beyond this (routing, validation, keys, limits,
headers) is what the benchmark prices. Its table, columns and wire names are read once, as the
worker starts, from the service's declaration (the model and the serializers), so that a field
added there is read and written here too. It takes one filter, ``status``: the listing's
page the service compiles once beside the plain one (pets.selectors), the two it prices.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any
from urllib.parse import parse_qs

import django
import psycopg

_connection: psycopg.Connection | None = None
_PET = re.compile(r"^/v1/pets/([0-9]{1,19})$")


def _declared() -> tuple[tuple[str, ...], str, str, list[tuple[str, Any]], str]:
    """The answer's names, the read's and the insert's SQL, what a body may send (with each
    default), from the service's declaration, read once."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "petstore.settings")
    django.setup()
    from pets.models import Pet
    from pets.selectors import PET
    from pets.serializers import NewPetSerializer

    meta = Pet._meta
    # By the names the serializers' sources use (``category_id``).
    field = {f.attname: f for f in meta.concrete_fields}
    columns = ", ".join(str(field[column].column) for column in PET.columns)
    select = f"SELECT {columns} FROM {meta.db_table}"  # noqa: S608
    sent = [(str(name), field[str(f.source)]) for name, f in NewPetSerializer().fields.items()]
    body = [(name, _plain(f.get_default())) for name, f in sent]
    stamped = [str(f.column) for f in meta.concrete_fields if getattr(f, "auto_now_add", False)]
    written = ", ".join([*(str(f.column) for _, f in sent), *stamped])
    values = ", ".join(["%s"] * len(sent) + ["now()"] * len(stamped))
    insert = (
        f"INSERT INTO {meta.db_table} ({written}) VALUES ({values}) "  # noqa: S608
        f"RETURNING {columns}"
    )
    return PET.names, select, insert, body, str(meta.pk.column)


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


_NAMES, _SELECT, _INSERT, _BODY, _ID = _declared()


def _db() -> psycopg.Connection:
    global _connection
    if _connection is None or _connection.closed:
        _connection = psycopg.connect(os.environ["DATABASE_URL"], autocommit=True)
    return _connection


def _json(start_response: Callable[..., Any], status: str, body: Any) -> Iterable[bytes]:
    payload = json.dumps(body).encode()
    start_response(
        status, [("Content-Type", "application/json"), ("Content-Length", str(len(payload)))]
    )
    return [payload]


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    path, method = environ["PATH_INFO"], environ["REQUEST_METHOD"]
    if path == "/v1/pets" and method == "GET":
        query = parse_qs(environ.get("QUERY_STRING", ""))
        limit = int(query.get("limit", ["20"])[0])
        sql = _SELECT
        params: list[Any] = []
        if "status" in query:
            sql += " WHERE status = %s"
            params.append(query["status"][0])
        sql += f" ORDER BY {_ID} LIMIT %s"
        params.append(limit + 1)
        rows = _db().execute(sql, params).fetchall()[:limit]
        return _json(
            start_response, "200 OK", [dict(zip(_NAMES, row, strict=True)) for row in rows]
        )
    if (match := _PET.match(path)) and method == "GET":
        row = _db().execute(f"{_SELECT} WHERE {_ID} = %s", [int(match[1])]).fetchone()
        if row is None:
            return _json(start_response, "404 Not Found", {"code": "not_found"})
        return _json(start_response, "200 OK", dict(zip(_NAMES, row, strict=True)))
    if path == "/v1/pets" and method == "POST":
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = json.loads(environ["wsgi.input"].read(length))
        sent = [body.get(name, default) for name, default in _BODY]
        row = _db().execute(_INSERT, sent).fetchone()
        assert row is not None
        return _json(start_response, "201 Created", dict(zip(_NAMES, row, strict=True)))
    return _json(start_response, "404 Not Found", {"code": "not_found"})
