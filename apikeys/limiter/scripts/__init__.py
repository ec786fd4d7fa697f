"""The limiter's Lua scripts, each read from its ``.lua`` file behind a prologue made here from
the Python declarations of what it is given, so that each name is written once and neither side
counts positions: ``key.<field>`` for each field of ``Keys`` (KEYS; ``key.windows`` an array,
one name per window), a local for each field of the argument tuples (ARGV, numbers converted;
a tuple field an array of one per window), the verdicts by name, and the rules' constants."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_type_hints

from apikeys.keyring import NO_KEY
from apikeys.limiter.counters import BAN_SECONDS, Args, GiveBack, Keys, Moment, PeekArgs
from apikeys.limiter.policy import BAN_MEMORY_SECONDS, LAST_USE_SECONDS, Verdict
from apikeys.records import RECORD_VERSION
from apikeys.windows import WINDOWS

# How many names or values a tuple field of Keys or of the arguments holds: one per window.
ARRAY = len(WINDOWS)


@dataclass(frozen=True)
class Script:
    source: str
    sha: str  # the name Redis gives it: EVALSHA sends the name, not the script
    argv: tuple[type[tuple[Any, ...]], ...]  # the tuples of its ARGV, in order
    # How many KEYS and ARGV its prologue reads: a tuple field one per window.
    key_count: int
    arg_count: int

    def arguments(self, names: list[str], *argv: tuple[Any, ...]) -> list[Any]:
        """EVALSHA's arguments but the name: the keys' ``names`` (``Keys.names``), then each of
        ``argv``'s fields, ``argv`` being one of each of the script's tuples, in order; a tuple
        field's values in its place. ``ValueError`` unless there are as many of each as the
        script reads, so that a tuple of another length than ``WINDOWS`` shifts nothing."""
        arguments: list[Any] = [len(names), *names]
        for values in argv:
            for value in values:
                if isinstance(value, tuple):
                    arguments += value
                else:
                    arguments.append(value)
        if len(names) != self.key_count or len(arguments) != 1 + self.key_count + self.arg_count:
            raise ValueError(
                f"{len(names)} keys and {len(arguments) - 1 - len(names)} arguments for a "
                f"script that reads {self.key_count} and {self.arg_count}: "
                f"one of each per window of {len(WINDOWS)}"
            )
        return arguments


def load(name: str, argv: tuple[type[tuple[Any, ...]], ...], **constants: Any) -> Script:
    source = _prologue(argv, constants) + (Path(__file__).parent / f"{name}.lua").read_text()
    sha = hashlib.sha1(source.encode(), usedforsecurity=False).hexdigest()
    return Script(source, sha, argv, _count(_key_fields()), _count(_arg_fields(argv)))


def _key_fields() -> list[tuple[str, Any]]:
    return list(get_type_hints(Keys).items())


def _arg_fields(argv: tuple[type[tuple[Any, ...]], ...]) -> list[tuple[str, Any]]:
    return [(field, hint) for a in argv for field, hint in get_type_hints(a).items()]


def _size(hint: Any) -> int:
    """How many of KEYS or ARGV a field of ``hint`` takes: a tuple one per window."""
    return ARRAY if hint in (tuple[int, ...], tuple[str, ...]) else 1


def _count(fields: list[tuple[str, Any]]) -> int:
    return sum(_size(hint) for _, hint in fields)


def _prologue(argv: tuple[type[tuple[Any, ...]], ...], constants: dict[str, Any]) -> str:
    lines = ["-- Made by apikeys.limiter.scripts from Keys, " + ", ".join(a.__name__ for a in argv)]
    keys = _slots("KEYS", _key_fields(), number=False)
    lines += ["local key = {", *(f"  {field} = {value}," for field, value in keys), "}"]
    lines += [f"local {field} = {value}" for field, value in _slots("ARGV", _arg_fields(argv))]
    lines += [f"local {verdict.name} = {verdict.value}" for verdict in Verdict]
    lines += [f"local {name} = {_lua(value)}" for name, value in constants.items()]
    return "\n".join(lines) + "\n"


def _slots(array: str, fields: list[tuple[str, Any]], number: bool = True) -> list[tuple[str, str]]:
    """Each field's value read from ``array`` (KEYS or ARGV), in order: an int converted (when
    ``number``), a tuple's ``ARRAY`` values as a Lua array."""
    values, n = [], 0
    for field, hint in fields:
        size = _size(hint)
        items = [f"{array}[{n + i}]" for i in range(1, size + 1)]
        if number and hint in (int, tuple[int, ...]):
            items = [f"tonumber({item})" for item in items]
        n += size
        values.append((field, items[0] if size == 1 else "{" + ", ".join(items) + "}"))
    return values


def _lua(value: int | str | tuple[str, ...] | dict[int, int]) -> str:
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, tuple):
        return "{" + ", ".join(map(_lua, value)) + "}"
    if isinstance(value, dict):
        return "{" + ", ".join(f"[{number}] = {item}" for number, item in value.items()) + "}"
    return str(value)


CHECK = load(
    "check",
    (Args, Moment),
    ban_memory=BAN_MEMORY_SECONDS,
    ban_seconds=BAN_SECONDS,
    last_use_seconds=LAST_USE_SECONDS,
    no_key=NO_KEY.decode(),
    record_version=RECORD_VERSION,
    window_names=tuple(w.name for w in WINDOWS),
    # The names a check by record fills in with the record's ids, its windows' aside.
    account_names=tuple(
        field
        for field in Keys._fields
        if field not in ("windows", "generation", "usage_index", "record")
    ),
)
PEEK = load("peek", (PeekArgs,))
GIVE_BACK = load("give_back", (GiveBack,))
