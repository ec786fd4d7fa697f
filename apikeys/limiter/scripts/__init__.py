"""The limiter's Lua scripts, each read from its ``.lua`` file behind a prologue made here from
the Python declarations of what it is given, so that each name is written once and neither side
counts positions: ``key.<field>`` for each field of ``Keys`` (KEYS), a local for each field of
the argument tuples (ARGV, numbers converted), the verdicts by name, and the rules' constants."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_type_hints

from apikeys.keyring import NO_KEY
from apikeys.limiter.counters import BAN_SECONDS, UNREAD, Args, Keys, Moment, PeekArgs
from apikeys.limiter.policy import BAN_MEMORY_SECONDS, LAST_USE_SECONDS, Verdict
from apikeys.records import WIRE


@dataclass(frozen=True)
class Script:
    source: str
    sha: str  # the name Redis gives it: EVALSHA sends the name, not the script
    argv: tuple[type[tuple[Any, ...]], ...]  # the tuples of its ARGV, in order

    def arguments(self, keys: Keys, *argv: tuple[Any, ...]) -> list[Any]:
        """EVALSHA's arguments but the name: the keys, then each of ``argv``'s fields, ``argv``
        being one of each of the script's tuples, in order."""
        arguments = [len(keys), *keys]
        for values in argv:
            arguments += values
        return arguments


def load(name: str, argv: tuple[type[tuple[Any, ...]], ...], **constants: Any) -> Script:
    source = _prologue(argv, constants) + (Path(__file__).parent / f"{name}.lua").read_text()
    return Script(source, hashlib.sha1(source.encode(), usedforsecurity=False).hexdigest(), argv)


def _prologue(argv: tuple[type[tuple[Any, ...]], ...], constants: dict[str, Any]) -> str:
    lines = ["-- Made by apikeys.limiter.scripts from Keys, " + ", ".join(a.__name__ for a in argv)]
    lines.append("local key = {")
    lines += [f"  {field} = KEYS[{n}]," for n, field in enumerate(Keys._fields, 1)]
    lines.append("}")
    fields = [(field, hint) for a in argv for field, hint in get_type_hints(a).items()]
    for n, (field, hint) in enumerate(fields, 1):
        lines.append(
            f"local {field} = " + (f"tonumber(ARGV[{n}])" if hint is int else f"ARGV[{n}]")
        )
    lines += [f"local {verdict.name} = {verdict.value}" for verdict in Verdict]
    lines += [f"local {name} = {_lua(value)}" for name, value in constants.items()]
    return "\n".join(lines) + "\n"


def _lua(value: int | str | tuple[int, ...] | dict[str, int]) -> str:
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, tuple):
        return "{" + ", ".join(map(str, value)) + "}"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{name} = {item}" for name, item in value.items()) + "}"
    return str(value)


CHECK = load(
    "check",
    (Args, Moment),
    ban_memory=BAN_MEMORY_SECONDS,
    ban_seconds=BAN_SECONDS,
    last_use_seconds=LAST_USE_SECONDS,
    no_key=NO_KEY.decode(),
    wire={field: n for n, field in enumerate(WIRE, 1)},
    unread_account=UNREAD.tag,
    unread_key=f":{UNREAD.caller}:",
)
PEEK = load("peek", (PeekArgs,))
