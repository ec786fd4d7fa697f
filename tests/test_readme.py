"""The README's session with curl is what `make run` answers: each command in it is sent to the
embedded server, and every header and body shown must be what came back (``…`` elides)."""

from __future__ import annotations

import re
import shlex
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from tests.embedded import ROOT, embedded_env, manage, runserver

README_HOST = "127.0.0.1:8000"


@dataclass
class Exchange:
    command: list[str]  # [] for an answer the README shows without its command
    status: str = ""  # "HTTP/1.1 200 OK", or "" when the README shows no status line
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: str = ""


def session() -> list[Exchange]:
    """The curl commands of the README's session, each with the answer it shows."""
    text = (ROOT / "README.md").read_text()
    block = text.split("## A session with curl", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    exchanges: list[Exchange] = []
    lines = iter(block.splitlines())
    for line in lines:
        if line.startswith("$ curl"):
            while line.endswith("\\"):
                line = line[:-1] + next(lines).strip()
            exchanges.append(Exchange(shlex.split(line[2:])))
        elif line.startswith("$ "):  # a comment: what follows it is not a command's answer
            exchanges.append(Exchange([]))
        elif not exchanges or not line:
            continue
        elif line.startswith("HTTP/1.1 "):
            exchanges[-1].status = line
        elif re.match(r"^[A-Za-z-]+: ", line) and not exchanges[-1].body:
            name, value = line.split(": ", 1)
            exchanges[-1].headers.append((name, value))
        else:
            exchanges[-1].body += line
    return [each for each in exchanges if each.command and (each.status or each.body)]


def send(command: list[str], key: str, host: str) -> tuple[str, dict[str, str], str]:
    """What ``curl`` with these arguments gets: its status line, headers and body."""
    method, headers, data, url = "GET", {}, None, ""
    words = iter(command[1:])
    for word in words:
        if word == "-X":
            method = next(words)
        elif word == "-H":
            name, value = next(words).split(": ", 1)
            headers[name] = value.replace("$KEY", key)
        elif word == "-d":
            data, method = next(words).encode(), "POST" if method == "GET" else method
        elif word.startswith("http"):
            url = word.replace(README_HOST, host)
    request = urllib.request.Request(url, data, headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            answer = response
            body = response.read().decode()
    except urllib.error.HTTPError as refused:
        answer, body = refused, refused.read().decode()
    status = f"HTTP/1.1 {answer.status} {answer.reason}"
    return status, {name: value for name, value in answer.headers.items()}, body


def shown(elided: str, real: str) -> bool:
    """Whether ``real`` is ``elided`` with something in place of each ``…``."""
    pattern = ".*?".join(re.escape(part) for part in elided.split("…"))
    return re.fullmatch(pattern, real, re.DOTALL) is not None


def test_the_readmes_curl_session_is_what_make_run_answers(tmp_path: Path):
    env = {**embedded_env(tmp_path / "db.sqlite3"), "PETSTORE_QUEUE_DIR": str(tmp_path)}
    manage(env, "migrate", "--verbosity", "0")
    manage(env, "seed_demo")
    key = manage(env, "demo_key").splitlines()[-1]
    exchanges = session()
    assert len(exchanges) >= 3  # the README's session is read, not skipped

    with runserver(env, key) as server:
        host = server.url.removeprefix("http://")
        for exchange in exchanges:
            status, headers, body = send(exchange.command, key, host)
            said = " ".join(exchange.command)
            if exchange.status:
                assert status == exchange.status, said
            for name, value in exchange.headers:
                assert headers.get(name) == value.replace(README_HOST, host), (said, name)
            assert shown(exchange.body, body), (said, body)
