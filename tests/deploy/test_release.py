"""A second release, with a migration its code relies on, deployed by ``deploy.release`` to a
running `make serve` under steady reads and writes: no failed request, no lost write, every
webhook once, never a second without an answer; then the host drains: ``/readyz`` answers 503
while requests are still served."""

from __future__ import annotations

import collections
import contextlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from http import HTTPStatus
from pathlib import Path
from typing import IO

import pytest
from django.db import connection

from deploy.release import workers_of
from pets.models import Pet
from tests.deploy.load import Load
from tests.deploy.releases import SECOND_MIGRATION, lay_out
from tests.network import free_port
from tests.waiting import wait_until
from tests.webhooks.conftest import Receiver, worker_env

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

# make serve with two gunicorn workers (the fewest that share the load), drained for 3 s.
SERVE = [sys.executable, "-m", "deploy.serve", "--workers", "2", "--drain-seconds", "3"]
RELEASE = [sys.executable, "-m", "deploy.release"]
# Answers before the release, and after it, at the least.
STRETCH = 150
# A partner waits no longer than this for some answer, release or not.
LONGEST_GAP = 1.0


def get(url: str, key: str = "") -> tuple[int, dict[str, object]]:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    try:
        request = urllib.request.Request(url, headers=headers)
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
    except OSError:
        return 0, {}


def ready(run_dir: Path, pid_file: str) -> bool:
    """The process whose pid ``pid_file`` holds has made its mark (deploy.rolling)."""
    try:
        pid = (run_dir / pid_file).read_text().strip()
    except FileNotFoundError:
        return False
    return (run_dir / "ready" / pid).exists()


def start_serve(
    current: Path, run_dir: Path, port: int, env: dict[str, str], log: IO[bytes]
) -> subprocess.Popen[bytes]:
    """`make serve` started from the ``current`` symlink, its output in ``log``."""
    return subprocess.Popen(
        [*SERVE, "--listen", f"127.0.0.1:{port}", "--run-dir", str(run_dir)],
        cwd=current,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def test_a_release_deploys_under_load_with_nothing_failed_lost_doubled_or_paused(
    make_key, dog, receiver: Receiver, tmp_path: Path
):
    key = make_key(plan="enterprise")
    _, second, current = lay_out(tmp_path)
    # Not under tmp_path, which nginx's unprivileged workers (under root) cannot enter.
    run_dir = Path(tempfile.mkdtemp(prefix="petstore-release-"))
    env = {
        **worker_env(PETSTORE_WEBHOOK_TIMEOUT_SECONDS="5", PETSTORE_WEBHOOK_LEASE_SECONDS="20"),
        "PWD": str(current),  # as a shell started in it names it: the symlink, not its target
        "PYTHONUNBUFFERED": "1",
    }
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = (tmp_path / "serve.log").open("wb")
    serve = start_serve(current, run_dir, port, env, log)
    load = Load(port, key, dog.pk)
    try:
        wait_until(lambda: get(f"{url}/healthz")[0] == HTTPStatus.OK, "make serve to answer")
        endpoint = urllib.request.Request(
            f"{url}/v1/webhook_endpoints",
            json.dumps({"url": receiver.url, "events": ["pet.created"]}).encode(),
            {"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(endpoint, timeout=30) as response:
            assert response.status == HTTPStatus.CREATED

        load.start()  # while the Celery worker starts: what it owes meanwhile waits for it
        wait_until(lambda: load.count() >= STRETCH, "answers before the release")
        wait_until(lambda: ready(run_dir, "celery.pid"), "the Celery worker to consume")
        # Timed from here: the stack's own start (each worker's first requests) is not the
        # release's doing.
        warm = time.monotonic()
        began = time.monotonic()
        deployed = subprocess.run(
            [*RELEASE, "--run-dir", str(run_dir), "--to", str(second), "--current", str(current)],
            cwd=second,
            env=env,
            capture_output=True,
            text=True,
            timeout=150,
        )
        ended = time.monotonic()
        assert deployed.returncode == 0, deployed.stdout + deployed.stderr
        released = load.count()
        wait_until(lambda: load.count() >= released + STRETCH, "answers after the release")
        load.stop()

        # Every gunicorn worker and the Celery worker run the second release.
        assert {get(f"{url}/healthz")[1].get("release") for _ in range(12)} == {"2"}
        celery = (run_dir / "celery.pid").read_text().strip()
        assert Path(os.readlink(f"/proc/{celery}/cwd")) == second.resolve()

        created = dict(load.created)
        wait_until(
            lambda: {json.loads(d.body)["data"]["id"] for d in receiver.received} >= set(created),
            "every pet's webhook",
        )

        # Draining: not ready for new clients, still answering those it has.
        serve.send_signal(signal.SIGTERM)
        wait_until(lambda: get(f"{url}/readyz")[0] != HTTPStatus.OK, "the host to drain")
        status, body = get(f"{url}/readyz")
        assert (status, body["checks"]) == (
            HTTPStatus.SERVICE_UNAVAILABLE,
            {"database": "ok", "cache": "ok", "host": "draining"},
        )
        assert get(f"{url}/v1/pets/{max(created)}", key)[0] == HTTPStatus.OK
        assert serve.wait(timeout=60) == 0
    finally:
        load.stop()
        if serve.poll() is None:
            serve.send_signal(signal.SIGINT)
            serve.wait(timeout=60)
        log.close()
        shutil.rmtree(run_dir, ignore_errors=True)
        # The test database goes back to the first release's schema (what unapplying the
        # migration does, without starting Django again for it).
        with connection.cursor() as cursor:
            cursor.execute("ALTER TABLE pets_pet DROP COLUMN IF EXISTS release_note")
            cursor.execute(
                "DELETE FROM django_migrations WHERE app = 'pets' AND name = %s", [SECOND_MIGRATION]
            )

    statuses = collections.Counter(outcome for _, outcome in load.answers)
    per_webhook = collections.Counter(d.headers["webhook-id"] for d in receiver.received)
    delivered = {json.loads(d.body)["data"]["id"] for d in receiver.received}
    stored = dict(Pet.objects.filter(id__in=created).values_list("id", "name"))
    gap, gap_at = load.longest_gap(since=warm)
    print(
        f"\nA release under load: {len(load.answers)} answers {dict(statuses)}, longest gap "
        f"{gap:.3f} s ({gap_at - began:+.1f} s from the release's start, which took "
        f"{ended - began:.1f} s); {len(created)} pets written, {len(receiver.received)} "
        f"webhooks received for {len(per_webhook)} events\n{deployed.stdout}"
    )
    assert set(statuses) <= {HTTPStatus.OK, HTTPStatus.CREATED}, statuses
    assert stored == created  # no write lost
    assert delivered == set(created)  # no webhook lost
    assert set(per_webhook.values()) == {1}  # none sent twice
    assert gap < LONGEST_GAP


def test_a_release_stopped_part_way_says_how_to_finish_and_run_again_finishes(
    make_key, tmp_path: Path
):
    """gunicorn's master, busy, does not fork the new workers in time: the release stops after
    switching ``current``, says so in one sentence with the command that finishes it, and that
    command, run once the master answers again, moves every worker with none added twice."""
    first, second, current = lay_out(tmp_path)
    run_dir = Path(tempfile.mkdtemp(prefix="petstore-release-"))
    env = {**worker_env(), "PWD": str(current), "PYTHONUNBUFFERED": "1"}
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = (tmp_path / "serve.log").open("wb")
    serve = start_serve(current, run_dir, port, env, log)
    master = 0
    try:
        wait_until(lambda: get(f"{url}/healthz")[0] == HTTPStatus.OK, "make serve to answer")
        wait_until(lambda: ready(run_dir, "celery.pid"), "the Celery worker to consume")
        master = int((run_dir / "gunicorn.pid").read_text())
        before = workers_of(master)

        os.kill(master, signal.SIGSTOP)
        stopped = subprocess.run(
            [
                *RELEASE,
                "--run-dir",
                str(run_dir),
                "--to",
                str(second),
                "--current",
                str(current),
                "--wait",
                "3",
            ],
            cwd=second,
            env=env,
            capture_output=True,
            text=True,
            timeout=150,
        )
        os.kill(master, signal.SIGCONT)
        sentence = stopped.stderr.strip()
        assert stopped.returncode == 1, stopped.stdout + stopped.stderr
        assert "\n" not in sentence
        assert f"pointed {current} at {second}" in sentence
        assert (
            "not moved gunicorn's workers to the new code nor moved the Celery worker" in sentence
        )
        assert current.resolve() == second.resolve()
        finish = sentence.split("; run ", 1)[1].split(" to finish", 1)[0]
        back = sentence.split(", or ", 1)[1].removesuffix(" to go back")
        assert shlex.split(back)[shlex.split(back).index("--to") + 1] == str(first.resolve())

        # The same command, given the default time to start workers again.
        again = shlex.split(finish)
        assert again[again.index("--wait") :] == ["--wait", "3"]
        finished = subprocess.run(
            again[:-2], cwd=second, env=env, capture_output=True, text=True, timeout=300
        )
        assert finished.returncode == 0, finished.stdout + finished.stderr
        after = workers_of(master)
        assert len(after) == len(before)  # as many workers as before, none added twice
        assert not after & before
        assert {get(f"{url}/healthz")[1].get("release") for _ in range(12)} == {"2"}
        celery = (run_dir / "celery.pid").read_text().strip()
        assert Path(os.readlink(f"/proc/{celery}/cwd")) == second.resolve()
        assert not (run_dir / "web-roll.json").exists()
        print(f"\nStopped part way:\n{sentence}\nRun again:\n{finished.stdout}")
    finally:
        if master:
            with contextlib.suppress(ProcessLookupError):
                os.kill(master, signal.SIGCONT)
        if serve.poll() is None:
            serve.send_signal(signal.SIGINT)
            serve.wait(timeout=60)
        log.close()
        shutil.rmtree(run_dir, ignore_errors=True)
        with connection.cursor() as cursor:
            cursor.execute("ALTER TABLE pets_pet DROP COLUMN IF EXISTS release_note")
            cursor.execute(
                "DELETE FROM django_migrations WHERE app = 'pets' AND name = %s", [SECOND_MIGRATION]
            )
