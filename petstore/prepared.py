"""Read paths that compile their SQL once: the ORM states the query, no request pays for it.

Building and compiling a queryset costs more per request than running it (docs/performance.md).
``PreparedQuery`` compiles a queryset the first time it is
needed, per database vendor and LIMIT, with stand-in values where the request's values go, and
then runs that SQL with the request's values. ``Shape`` reads a serializer's declared fields
once, so that rows become the API's dicts directly while the OpenAPI document still comes from
the serializer.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import QuerySet
from rest_framework import serializers


class Shape:
    """The wire names and the columns behind them, as a serializer declares them."""

    def __init__(self, serializer_class: type[serializers.Serializer]) -> None:
        fields = serializer_class().fields
        self.names = tuple(fields)
        self.columns: tuple[str, ...] = tuple(str(field.source) for field in fields.values())

    def rows(self, rows: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
        names = self.names
        return [dict(zip(names, row, strict=True)) for row in rows]

    def of(self, instance: Any) -> dict[str, Any]:
        """A model instance in this shape."""
        pairs = zip(self.names, self.columns, strict=True)
        return {name: getattr(instance, column) for name, column in pairs}


class _Slot:
    """Where a named value goes among the compiled query's parameters."""

    def __init__(self, name: str) -> None:
        self.name = name


class PreparedQuery:
    """``build(**stand_ins)`` returns the queryset; each keyword names a value given at run time.

    Stand-ins are values no request sends (negative ids, a status no one has); the compiled
    parameters are searched for them, so their positions need not be known in advance.
    """

    def __init__(self, build: Callable[..., QuerySet[Any]], **stand_ins: Any) -> None:
        self._build = build
        self._stand_ins = stand_ins
        self._compiled: dict[tuple[str, int | None], tuple[str, list[Any]]] = {}
        self._lock = threading.Lock()

    def _compile(self, connection: BaseDatabaseWrapper, limit: int | None) -> tuple[str, list[Any]]:
        key = (connection.vendor, limit)
        compiled = self._compiled.get(key)
        if compiled is None:
            queryset = self._build(**self._stand_ins)
            if limit is not None:
                queryset = queryset[:limit]
            sql, params = queryset.query.sql_with_params()
            by_value = {value: _Slot(name) for name, value in self._stand_ins.items()}
            slots = [by_value.get(param, param) for param in params]
            missing = set(self._stand_ins) - {s.name for s in slots if isinstance(s, _Slot)}
            if missing:
                raise ValueError(f"stand-ins not found in the compiled query: {missing}")
            compiled = (sql, slots)
            with self._lock:
                self._compiled[key] = compiled
        return compiled

    def run(self, limit: int | None = None, **values: Any) -> list[tuple[Any, ...]]:
        # The connection looked up once: each use of django.db.connection looks it up again.
        connection = connections[DEFAULT_DB_ALIAS]
        sql, slots = self._compile(connection, limit)
        params = [values[s.name] if isinstance(s, _Slot) else s for s in slots]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()
