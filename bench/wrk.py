"""wrk's runs against one of the bench's servers, and their medians."""

from __future__ import annotations

import re
import statistics
import subprocess
import tempfile
from dataclasses import dataclass

from bench.environment import CONNECTIONS, PORTS


@dataclass
class Run:
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    non_2xx: int
    socket_errors: int
    requests: int


def wrk(name: str, method: str, path: str, key: str, seconds: int, script: str = "") -> Run:
    """``seconds`` of requests to ``name``'s server with ``key``, or with the keys ``script``
    (wrk's Lua) puts on each request when ``key`` is empty."""
    url = f"http://127.0.0.1:{PORTS[name]}{path}"
    if method == "POST":
        script = (
            'wrk.method = "POST"\n'
            'wrk.body = \'{"name": "Bench", "categoryId": 1}\'\n'
            'wrk.headers["Content-Type"] = "application/json"\n'
        )
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as lua:
        lua.write(script)
        lua.flush()
        out = subprocess.run(
            [
                "wrk",
                "-t2",
                f"-c{CONNECTIONS}",
                f"-d{seconds}s",
                "--latency",
                *(["-H", f"Authorization: Bearer {key}"] if key else []),
                "-s",
                lua.name,
                url,
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    return Run(
        requests_per_second=float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1]),  # type: ignore[index]
        p50_ms=_latency(out, "50%"),
        p99_ms=_latency(out, "99%"),
        non_2xx=int(m[1]) if (m := re.search(r"Non-2xx or 3xx responses: (\d+)", out)) else 0,
        socket_errors=sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out)),
        requests=int(re.search(r"(\d+) requests in", out)[1]),  # type: ignore[index]
    )


def _latency(out: str, percentile: str) -> float:
    value, unit = re.search(rf"{percentile}\s+([\d.]+)(us|ms|s)", out).groups()  # type: ignore[union-attr]
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def median_run(runs: list[Run]) -> Run:
    return Run(
        requests_per_second=statistics.median(r.requests_per_second for r in runs),
        p50_ms=statistics.median(r.p50_ms for r in runs),
        p99_ms=statistics.median(r.p99_ms for r in runs),
        non_2xx=sum(r.non_2xx for r in runs),
        socket_errors=sum(r.socket_errors for r in runs),
        requests=sum(r.requests for r in runs),
    )
