"""The floor: the same SQL and JSON as the service, with no framework at all.

A bare WSGI app under the same gunicorn settings, one persistent psycopg connection per
worker, ``json.dumps``. What the service does beyond this (routing, validation, keys, limits,
headers) is what the benchmark prices.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs

import psycopg

_connection: psycopg.Connection | None = None
_PET = re.compile(r"^/v1/pets/([0-9]{1,19})$")
_COLUMNS = ("id", "name", "categoryId", "status")


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
        sql = "SELECT id, name, category_id, status FROM pets_pet"
        params: list[Any] = []
        if "status" in query:
            sql += " WHERE status = %s"
            params.append(query["status"][0])
        sql += " ORDER BY id LIMIT %s"
        params.append(limit + 1)
        rows = _db().execute(sql, params).fetchall()[:limit]
        return _json(
            start_response, "200 OK", [dict(zip(_COLUMNS, row, strict=True)) for row in rows]
        )
    if (match := _PET.match(path)) and method == "GET":
        row = (
            _db()
            .execute(
                "SELECT id, name, category_id, status FROM pets_pet WHERE id = %s", [int(match[1])]
            )
            .fetchone()
        )
        if row is None:
            return _json(start_response, "404 Not Found", {"code": "not_found"})
        return _json(start_response, "200 OK", dict(zip(_COLUMNS, row, strict=True)))
    if path == "/v1/pets" and method == "POST":
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = json.loads(environ["wsgi.input"].read(length))
        status = body.get("status", "available")
        row = (
            _db()
            .execute(
                "INSERT INTO pets_pet (name, category_id, status, created_at) "
                "VALUES (%s, %s, %s, now()) RETURNING id",
                [body["name"], body["categoryId"], status],
            )
            .fetchone()
        )
        assert row is not None
        return _json(
            start_response,
            "201 Created",
            {
                "id": row[0],
                "name": body["name"],
                "categoryId": body["categoryId"],
                "status": status,
            },
        )
    return _json(start_response, "404 Not Found", {"code": "not_found"})
