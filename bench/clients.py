"""Two ways for a webhook worker to keep hundreds of deliveries in flight to slow receivers,
measured side by side on loopback, so that we choose by numbers:

  gevent   what we ship: Celery's gevent pool, each greenlet posting with urllib3 as
           webhooks.delivery.Sender does (here a new HTTPConnectionPool, so a new connection,
           per attempt; retries and redirects off; 5 s to connect, 15 s to answer), the pool's
           concurrency limit played by a gevent.pool.Pool;
  asyncio  an asyncio HTTP client inside a task: one httpx.AsyncClient, keep-alive off (a new
           connection per POST, as ours), asyncio.gather over the attempts, a semaphore as the
           limit.

A third row measures the asyncio client's throughput once more with httpcore's per-request failed
`import sniffio` cut short (see VARIANTS), to tell httpx's own cost from that defect's.

Both post the same ~400-byte JSON body, signed per attempt with the Standard Webhooks headers.
Each variant runs each part in a fresh process of its own (bench.client_runs; gevent patched
before anything else is imported, the asyncio one never patched), after 100 posts of warm-up:

  throughput  3,000 POSTs to a quick receiver, 50 in flight: deliveries/s, and the client's CPU
              seconds (getrusage user + sys) per 1,000 deliveries; three runs each, the median;
  hanging     500 POSTs at once to a receiver that accepts, reads and never answers (it drops
              each connection after 5 s), with a 3 s read timeout: the client's VmRSS growth
              while they are all in flight, and whether all 500 time out at ~3 s together;
  mixed       100 hanging POSTs beside 1,000 quick ones (50 at a time): the quick ones' p50 and
              p95 latency and when the last of them was done, which must not wait on the hanging.

Each receiver (bench.client_receivers) is an asyncio protocol in a process of its own, written
for speed; the quick one is first driven alone by wrk (connection per request), to show it takes
far more than either client sends it. Receivers exit when this process ends, however it ends.

    .venv/bin/python -m bench.clients        # about 70 s; writes bench/results/clients.txt
"""

from __future__ import annotations

import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

from bench.client_receivers import Receiver, receiver
from bench.client_runs import BODY, HANGING_POSTS, THROUGHPUT_POSTS, Outcome, Part

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
RESULTS = ROOT / "bench" / "results" / "clients.txt"

THROUGHPUT_RUNS = 3
DEADLINE_SECONDS = 115  # the whole run; a client process still running then is killed
BEGAN = time.monotonic()  # when this module was imported: the run's start

VARIANTS = {
    "gevent": "gevent pool + urllib3 (shipped)",
    "asyncio": "asyncio task + httpx.AsyncClient",
    # httpcore 1.0.9 tries `import sniffio` at every lock it sets up, and anyio no longer brings
    # sniffio, so each request pays for failed imports (encode/httpcore#1103, open). This row,
    # throughput only, shows httpx with that lookup cut short, as a fixed httpcore would be.
    "asyncio-fixed": "the same, httpcore's failed `import sniffio` cut short",
}
# Each client process starts with these lines: gevent patches before it imports anything else.
PRELUDE = {
    "gevent": "from gevent import monkey\nmonkey.patch_all()\n",
    "asyncio": "",
    "asyncio-fixed": "import sys\nsys.modules['sniffio'] = None  # fails at once, no path search\n",
}
MEASURED_IN_FULL = ("gevent", "asyncio")  # the others: one throughput run


def receiver_alone(quick: Receiver) -> float:
    """The quick receiver's requests/s under wrk: 50 connections, a new one per request."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as script:
        script.write(
            'wrk.method = "POST"\n'
            f"wrk.body = {json.dumps(BODY.decode())}\n"
            'wrk.headers["Content-Type"] = "application/json"\n'
        )
        script.flush()
        out = subprocess.run(
            ["wrk", "-t1", "-c50", "-d3s", "-s", script.name, f"http://127.0.0.1:{quick.port}/"],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        ).stdout
    found = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if found is None or "Non-2xx" in out or "Socket errors" in out:
        raise SystemExit(f"wrk against the quick receiver:\n{out}")
    return float(found[1])


def in_child(variant: str, part: str, quick: Receiver, hanging: Receiver) -> Part:
    code = PRELUDE[variant] + "import bench.client_runs\nbench.client_runs.client()\n"
    command = [PYTHON, "-c", code, variant, part, str(quick.port), str(hanging.port)]
    left = DEADLINE_SECONDS - (time.monotonic() - BEGAN)
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=left)
    except subprocess.TimeoutExpired:
        raise SystemExit(f"{variant} {part}: stopped at the run's {DEADLINE_SECONDS} s") from None
    if done.returncode != 0:
        raise SystemExit(f"{variant} {part} failed:\n{done.stderr}")
    outcomes, *rest = json.loads(done.stdout.splitlines()[-1])
    return Part([[Outcome(*o) for o in job] for job in outcomes], *rest)


def results(outcomes: list[Outcome]) -> str:
    return ", ".join(f"{n} x {result}" for result, n in Counter(o.result for o in outcomes).items())


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def measure(variant: str, quick: Receiver, hanging: Receiver) -> dict[str, str]:
    runs = []
    for _ in range(THROUGHPUT_RUNS if variant in MEASURED_IN_FULL else 1):
        receiver_cpu = quick.cpu_seconds()
        part = in_child(variant, "throughput", quick, hanging)
        runs.append((part, quick.cpu_seconds() - receiver_cpu))
    runs.sort(key=lambda run: THROUGHPUT_POSTS / run[0].wall)
    part, receiver_cpu = runs[len(runs) // 2]
    rates = [THROUGHPUT_POSTS / p.wall for p, _ in runs]
    spread = f"median of {len(runs)}: {min(rates):,.0f}-{max(rates):,.0f}" if runs[1:] else "1 run"
    row = {
        "throughput": f"{THROUGHPUT_POSTS / part.wall:,.0f} deliveries/s ({spread})",
        "client CPU": f"{part.cpu / THROUGHPUT_POSTS * 1000:.2f} s per 1,000 deliveries"
        f" (runs: {', '.join(f'{p.cpu / THROUGHPUT_POSTS * 1000:.2f}' for p, _ in runs)})",
        "receiver busy": f"{receiver_cpu / part.wall:.0%} of a CPU meanwhile",
        "throughput results": results(part.outcomes[0]),
    }
    if variant not in MEASURED_IN_FULL:
        return row

    part = in_child(variant, "hanging", quick, hanging)
    attempts = part.outcomes[0]
    growth = part.rss_peak_kb - part.rss_before_kb
    row["hanging RSS"] = (
        f"+{growth / 1024:.1f} MB per {HANGING_POSTS} in flight ({growth / HANGING_POSTS:.1f} KB "
        f"each; {part.rss_before_kb / 1024:.1f} -> {part.rss_peak_kb / 1024:.1f} MB)"
    )
    row["hanging timing"] = (
        f"all done in {part.wall:.2f} s; each {min(o.ended - o.started for o in attempts):.2f}"
        f"-{max(o.ended - o.started for o in attempts):.2f} s; started within "
        f"{ms(max(o.started for o in attempts))}"
    )
    row["hanging results"] = results(attempts)

    part = in_child(variant, "mixed", quick, hanging)
    stuck, quick_ones = part.outcomes
    latencies = sorted(o.ended - o.started for o in quick_ones)
    row["mixed quick latency"] = (
        f"p50 {ms(statistics.median(latencies))}, "
        f"p95 {ms(statistics.quantiles(latencies, n=100)[94])}, max {ms(latencies[-1])}"
    )
    row["mixed wall"] = (
        f"quick all done at {max(o.ended for o in quick_ones):.2f} s, "
        f"everything at {part.wall:.2f} s"
    )
    row["mixed results"] = f"quick: {results(quick_ones)}; hanging: {results(stuck)}"
    return row


def main() -> None:
    with receiver("quick") as quick, receiver("hanging") as hanging:
        alone = receiver_alone(quick)
        rows = {variant: measure(variant, quick, hanging) for variant in VARIANTS}
    lines = [
        f"Webhook clients on loopback (bench/clients.py), {datetime.now(UTC):%Y-%m-%d %H:%M} UTC;"
        f" Python {platform.python_version()}, {os.cpu_count()} CPUs; gevent {version('gevent')},"
        f" urllib3 {version('urllib3')}, httpx {version('httpx')}",
        f"quick receiver alone (wrk, 50 connections, one per request): {alone:,.0f} requests/s",
        "",
    ]
    for variant, row in rows.items():
        lines.append(f"{variant}: {VARIANTS[variant]}")
        lines += [f"  {name:<20} {value}" for name, value in row.items()]
        lines.append("")
    lines.append(f"run took {time.monotonic() - BEGAN:.0f} s")
    table = "\n".join(lines)
    print(table)
    RESULTS.write_text(table + "\n")


if __name__ == "__main__":
    main()
