"""No window admits more than its limit, however many processes and threads race for it."""

from __future__ import annotations

import multiprocessing
import os
import secrets
import threading
from multiprocessing.synchronize import Barrier

PROCESSES = 4
THREADS = 50
ROUNDS = 3
INSTANT = 1_795_000_000.0  # one fixed moment, so no round is split by a minute boundary


def _fire(account_ids: list[int], ready: Barrier, results) -> None:
    """In a fresh process, for each round: THREADS threads each check the round's account."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "petstore.settings")
    import django

    django.setup()
    import time_machine

    from apikeys.limiter import Subject, limiter
    from apikeys.models import Limits

    time_machine.travel(INSTANT, tick=False).start()  # this process ends with the round
    free = Limits.of(minute=60, day=1000)
    for account_id in account_ids:
        go = threading.Event()
        outcomes: list[bool] = []
        lock = threading.Lock()

        def one_request(key_id, account_id=account_id, go=go, outcomes=outcomes, lock=lock):
            go.wait()
            decision = limiter.check(Subject.account(account_id, free, key_id=key_id))
            with lock:
                outcomes.append(decision.allowed)

        threads = [threading.Thread(target=one_request, args=(n,)) for n in range(THREADS)]
        for thread in threads:
            thread.start()
        ready.wait()  # every process has its threads waiting: release them all at once
        go.set()
        for thread in threads:
            thread.join()
        results.put((account_id, sum(outcomes), len(outcomes)))


def test_processes_and_threads_together_get_exactly_the_free_minute_limit():
    context = multiprocessing.get_context("spawn")  # fresh interpreters, own connections
    account_ids = [10**12 + secrets.randbelow(10**9) for _ in range(ROUNDS)]
    ready = context.Barrier(PROCESSES)
    results = context.Queue()
    workers = [
        context.Process(target=_fire, args=(account_ids, ready, results)) for _ in range(PROCESSES)
    ]
    for worker in workers:
        worker.start()
    reports = [results.get(timeout=120) for _ in range(PROCESSES * ROUNDS)]
    for worker in workers:
        worker.join(timeout=30)
        assert worker.exitcode == 0

    figures = [
        (
            sum(admitted for a, admitted, _ in reports if a == account_id),
            sum(sent for a, _, sent in reports if a == account_id),
        )
        for account_id in account_ids
    ]
    print(f"\nadmitted/sent per round ({PROCESSES} processes x {THREADS} threads): {figures}")
    assert figures == [(60, PROCESSES * THREADS)] * ROUNDS
