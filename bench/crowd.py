"""The list request with many customers: 20,000 and 200,000 distinct keys in rotation (each on
an account of its own), and made-up keys, beside the same request with one key, in the same
rounds; and a worker's memory after 50k requests of the 20,000-key rotation. Part of
`make bench`; alone, on a database of its own making:

    python -m bench.crowd [--crowds 20000]

Keys are issued in bulk, as used before, and their records published as issuing publishes
them: a crowd the service knows, not one making its first requests.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import signal
import statistics
import subprocess
import tempfile
from pathlib import Path

import psycopg
from psycopg import sql

from apikeys.keys import display_prefix, generate_key
from bench.environment import DATABASE_URL, PYTHON, ROOT, SERVER_ENV
from bench.scale import seed_pets
from bench.servers import (
    install_production_environment,
    issue_key,
    prepare_database,
    setup,
    sh,
    start,
)
from bench.wrk import Run, wrk

PATH = "/v1/pets?limit=20"
CROWDS = (20_000, 200_000)
RESULTS = ROOT / "bench" / "results" / "crowd.json"
# Random keys in each wrk thread, or one made-up key per request.
ROTATION = """
local keys = {}
for line in io.lines("%s") do keys[#keys + 1] = line end
math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16))
request = function()
  local key = keys[math.random(#keys)]
  return wrk.format(nil, nil, {["Authorization"] = "Bearer " .. key})
end
"""


def issue_keys(count: int) -> list[str]:
    """``count`` keys, each on an Enterprise account of its own whose limits never interfere."""
    from apikeys.windows import WINDOWS

    raw = [generate_key() for _ in range(count)]
    with psycopg.connect(DATABASE_URL, autocommit=True) as db:
        plan = db.execute("SELECT id FROM apikeys_plan WHERE code = 'enterprise'").fetchone()
        assert plan is not None
        # Every window's own limit, whichever windows there are (apikeys.windows).
        custom = [w.custom_field for w in WINDOWS]
        insert = sql.SQL(
            "INSERT INTO apikeys_account (name, email, plan_id, {}, created_at) "
            "SELECT 'Crowd ' || g, '', %s, {}, now() "
            "FROM generate_series(1, %s) AS g RETURNING id"
        ).format(
            sql.SQL(", ").join(map(sql.Identifier, custom)),
            sql.SQL(", ").join([sql.Literal(1_000_000_000)] * len(custom)),
        )
        accounts = db.execute(
            insert,
            [plan[0], count],
        ).fetchall()
        with (
            db.cursor() as cursor,
            cursor.copy(
                "COPY apikeys_apikey (account_id, name, prefix, digest, created_at, "
                "last_used_at, kind, scopes, allowed_origins) FROM STDIN"
            ) as copy,
        ):
            for (account_id,), key in zip(accounts, raw, strict=True):
                digest = hashlib.sha256(key.encode()).hexdigest()
                copy.write_row(
                    (
                        account_id,
                        "crowd",
                        display_prefix(key),
                        digest,
                        "now",
                        "yesterday",
                        "secret",
                        "orders:read orders:write pets:read pets:write",
                        "",
                    )
                )
    with psycopg.connect(DATABASE_URL, autocommit=True) as db:
        db.execute("VACUUM ANALYZE apikeys_account, apikeys_apikey")
    # Issuing publishes each key's record (apikeys.signals); bulk rows are published here.
    sh(
        PYTHON,
        "manage.py",
        "shell",
        "-c",
        "from apikeys import keyring; from apikeys.models import ApiKey; "
        "keyring.publish(ApiKey.objects.filter(name='crowd').values_list('digest', flat=True))",
        env=SERVER_ENV,
    )
    return raw


def wrk_rotating(keys_file: Path, seconds: int) -> Run:
    return wrk("stack", "GET", PATH, "", seconds, script=ROTATION % keys_file)


def worker_rss_mb(server: subprocess.Popen[bytes]) -> list[float]:
    children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
    sizes = []
    for pid in children:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                sizes.append(round(int(line.split()[1]) / 1024, 1))
    return sizes


def measure_crowd(one_key: str, options: argparse.Namespace) -> dict[str, object]:
    """Issue the crowds, then, on a stack of its own: a worker's memory after 50k requests of
    the 20,000-key rotation, and every rotation beside the one key, round by round."""
    work = Path(tempfile.mkdtemp(prefix="petstore-crowd-"))
    files = {"one key": work / "one.txt", "made-up keys": work / "made-up.txt"}
    files["one key"].write_text(one_key + "\n")
    files["made-up keys"].write_text("\n".join(generate_key() for _ in range(50_000)) + "\n")
    crowds = options.crowds or list(CROWDS)
    for count in crowds:
        print(f"Issuing {count:,} keys …", flush=True)
        files[f"{count:,} keys"] = work / f"crowd-{count}.txt"
        files[f"{count:,} keys"].write_text("\n".join(issue_keys(count)) + "\n")
    server = start("stack")
    try:
        served = 0
        while served < 50_000:
            served += wrk_rotating(files[f"{crowds[0]:,} keys"], 4).requests
        memory = worker_rss_mb(server)
        for path in files.values():
            wrk_rotating(path, 2)  # warm-up
        runs: dict[str, list[Run]] = {label: [] for label in files}
        for _ in range(options.rounds):
            for label, path in files.items():
                runs[label].append(wrk_rotating(path, options.seconds))
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    one_rate = statistics.median(r.requests_per_second for r in runs["one key"])
    rows = {}
    for label, label_runs in runs.items():
        rate = statistics.median(r.requests_per_second for r in label_runs)
        rows[label] = {
            "requests_per_second": round(rate),
            "over_one_key": round(rate / one_rate, 3),
            "p50_ms": statistics.median(r.p50_ms for r in label_runs),
            "non_2xx": sum(r.non_2xx for r in label_runs),
            "requests": sum(r.requests for r in label_runs),
        }
    return {"rotations": rows, "rss_mb": memory, "requests_before_rss": served}


def report_crowd(crowd: dict[str, object]) -> None:
    rotations = crowd["rotations"]
    assert isinstance(rotations, dict)
    print("\nthe list limit=20, keys in rotation (made-up keys answer 401, then 429):")
    for label, row in rotations.items():
        print(
            f"  {label:>15}: {row['requests_per_second']:>7} req/s, "
            f"{row['over_one_key']:.2f} of one key, p50 {row['p50_ms']:.2f} ms, "
            f"non-2xx {row['non_2xx']}"
        )
    print(
        f"  worker RSS after {crowd['requests_before_rss']:,} requests of the first crowd: "
        f"{crowd['rss_mb']} MB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--crowds", type=int, nargs="*")
    options = parser.parse_args()
    setup()
    install_production_environment()
    prepare_database()
    seed_pets(10_000)
    crowd = measure_crowd(issue_key(), options)
    report_crowd(crowd)
    RESULTS.write_text(json.dumps(crowd, indent=2) + "\n")


if __name__ == "__main__":
    main()
