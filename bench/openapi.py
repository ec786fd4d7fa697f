"""What the public OpenAPI document costs a server beside a refusal: anyone without a key may
ask for either, so the document must be no easier a way to spend the service's CPU.

Against bench.servers' stack, without a key, rounds alternating: the list refused (401), the
document (200), and the document's 304 to the ETag it was served with. The ratio is the
refusal's req/s over the document's. `make bench` runs it with the rest.
"""

from __future__ import annotations

import argparse
import urllib.request
from dataclasses import asdict
from typing import Any

from bench.environment import PORTS
from bench.wrk import Run, median_run, wrk

DOCUMENT = "/v1/openapi.json"
CASES = {"refused": "/v1/pets?limit=20", "document": DOCUMENT, "document 304": DOCUMENT}


def measure_openapi(options: argparse.Namespace) -> dict[str, Any]:
    """Median req/s and latencies of each case; needs the stack up."""
    url = f"http://127.0.0.1:{PORTS['stack']}{DOCUMENT}"
    with urllib.request.urlopen(url, timeout=30) as answer:
        tag = answer.headers["ETag"]
    scripts = {name: "" for name in CASES}
    scripts["document 304"] = f"wrk.headers[\"If-None-Match\"] = '{tag}'\n"
    runs: dict[str, list[Run]] = {name: [] for name in CASES}
    for name, path in CASES.items():
        wrk("stack", "GET", path, "", 2, scripts[name])  # warm-up
    for _ in range(options.rounds):
        for name, path in CASES.items():
            runs[name].append(wrk("stack", "GET", path, "", options.seconds, scripts[name]))
    medians = {name: median_run(name_runs) for name, name_runs in runs.items()}
    refused = medians["refused"].requests_per_second
    return {
        **{name: asdict(run) for name, run in medians.items()},
        "refused_over_document": round(refused / medians["document"].requests_per_second, 3),
        "refused_over_304": round(refused / medians["document 304"].requests_per_second, 3),
    }


def report_openapi(result: dict[str, Any]) -> None:
    print()
    print("the OpenAPI document beside a refusal, without a key (refused req/s / document's):")
    for name in CASES:
        run = result[name]
        print(
            f"  {name:12} {run['requests_per_second']:8.0f} req/s  p50 {run['p50_ms']:.2f} ms  "
            f"p99 {run['p99_ms']:.2f} ms"
        )
    print(
        f"  refused/document {result['refused_over_document']:.2f}, "
        f"refused/304 {result['refused_over_304']:.2f}"
    )
