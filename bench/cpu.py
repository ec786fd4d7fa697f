"""Where the CPU of keys and limits goes: every process's time per request, stack against open.

    python -m bench.cpu          (after `make bench`, which installs the servers' environment)

Starts the bench's stack, bare and open servers (bench.servers), drives the list path of each
with wrk in turn, and reads from /proc the CPU time, user and kernel, that the server's workers,
Redis and PostgreSQL spent meanwhile, and the whole machine's (with the kernel's packet
handling, which no process is charged for), each divided by the requests served. A request's
price is the stack's figures less the open stack's; the bare one's less the open one's is what
the one Redis round trip a request needs costs by itself. Timings, unlike bench/cost.py's
instruction counts, include the work of Redis and PostgreSQL and the kernel's.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
from pathlib import Path

from bench.environment import PRODUCTION_VENV
from bench.scale import seed_pets
from bench.servers import issue_key, prepare_database, start
from bench.wrk import wrk

TICK = os.sysconf("SC_CLK_TCK")
PATH = "/v1/pets?limit=20"
SERVERS = ("stack", "bare", "open")


def process_seconds(pid: int) -> tuple[float, float]:
    """(user, kernel) CPU seconds of one process; (0, 0) once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0, 0.0
    return int(fields[11]) / TICK, int(fields[12]) / TICK


def machine_seconds() -> dict[str, float]:
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return {
        "user": values[0] / TICK,
        "kernel": values[2] / TICK,
        "irq": (values[5] + values[6]) / TICK,
    }


def pids_of(command: str) -> list[int]:
    out = subprocess.run(["pgrep", "-x", command], capture_output=True, text=True).stdout
    return [int(pid) for pid in out.split()]


def workers(server: subprocess.Popen[bytes]) -> list[int]:
    children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text()
    return [int(pid) for pid in children.split()]


def measure(name: str, server: subprocess.Popen[bytes], key: str, seconds: int) -> str:
    groups = {
        "workers": workers(server),
        "redis": pids_of("redis-server"),
        "postgres": pids_of("postgres"),
    }

    def sample() -> dict[str, tuple[float, float]]:
        return {
            group: (
                sum(process_seconds(pid)[0] for pid in pids),
                sum(process_seconds(pid)[1] for pid in pids),
            )
            for group, pids in groups.items()
        }

    before, machine_before = sample(), machine_seconds()
    run = wrk(name, "GET", PATH, key, seconds)
    after, machine_after = sample(), machine_seconds()
    per = 1e6 / run.requests
    parts = ", ".join(
        f"{group} {(after[group][0] - before[group][0]) * per:.0f}"
        f"+{(after[group][1] - before[group][1]) * per:.0f}"
        for group in groups
    )
    machine = ", ".join(
        f"{part} {(machine_after[part] - machine_before[part]) * per:.0f}" for part in machine_after
    )
    return (
        f"{name:5} {run.requests_per_second:6.0f} req/s; µs per request, user+kernel: {parts}; "
        f"machine: {machine}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--servers", nargs="+", default=list(SERVERS), choices=SERVERS)
    options = parser.parse_args()
    if not PRODUCTION_VENV.exists():
        raise SystemExit("Run `make bench` first: it installs the servers' environment.")
    prepare_database()
    seed_pets(10_000)
    key = issue_key()
    servers = {name: start(name) for name in options.servers}
    try:
        for name in servers:
            wrk(name, "GET", PATH, key, 2)  # warm-up
        for _ in range(options.rounds):
            for name, server in servers.items():
                print(measure(name, server, key, options.seconds), flush=True)
    finally:
        for server in servers.values():
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
