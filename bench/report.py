"""``make bench``'s report: the table on standard output, the results in
bench/results/latest.json."""

from __future__ import annotations

import json

from bench.crowd import report_crowd
from bench.environment import CONNECTIONS, ROOT
from bench.feed import report_feed
from bench.front import report_front
from bench.openapi import report_openapi
from bench.webhooks import report_webhooks


def report(results: dict[str, object]) -> None:
    variants = results["variants"]
    assert isinstance(variants, list)
    print()
    print(
        f"{results['workers']} {results['worker_class']} gunicorn workers, "
        f"{CONNECTIONS} connections, median of {results['rounds']} x {results['seconds']} s"
    )
    header = (
        f"{'variant':34} {'server':6} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'non-2xx':>8} {'errors':>7}"
    )
    print(header)
    print("-" * len(header))
    for row in variants:
        for name in ("stack", "floor", "open", "bare"):
            if name in row:
                run = row[name]
                print(
                    f"{row['variant']:34} {name:6} {run['requests_per_second']:8.0f} "
                    f"{run['p50_ms']:8.2f} {run['p99_ms']:8.2f} {run['non_2xx']:8d} "
                    f"{run['socket_errors']:7d}"
                )
        ratios = f"stack/floor {row['stack_over_floor']:.2f}"
        if "stack_over_open" in row:
            ratios += (
                f", stack/open {row['stack_over_open']:.2f}, bare/open {row['bare_over_open']:.2f}"
            )
        print(f"{'':34} {ratios}")
    memory, scale = results["memory"], results["scale"]
    assert isinstance(scale, dict)
    print()
    print(f"worker RSS: {memory}")
    for variant, figures in scale.items():
        print(
            f"scale, {variant}: list p50 {figures['p50_ms']} ms at {figures['pets']} "
            f"pets, ratio {figures['ratio']}, index: {figures['index'] or 'none'}"
        )
        print("  " + figures["plan"].replace("\n", "\n  "))
    report_front(results["front"])  # type: ignore[arg-type]
    report_openapi(results["openapi"])  # type: ignore[arg-type]
    report_crowd(results["crowd"])  # type: ignore[arg-type]
    report_webhooks(results["webhooks"])  # type: ignore[arg-type]
    report_feed(results["feed"])  # type: ignore[arg-type]
    out = ROOT / "bench" / "results" / "latest.json"
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"\nwritten to {out.relative_to(ROOT)}")
