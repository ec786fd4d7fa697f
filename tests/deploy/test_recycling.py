"""Recycled workers never restart together: each live worker's recycling point is its own,
away from its siblings' (deploy.rolling, gunicorn's pre_fork), where gunicorn's own jitter is a
random draw that two workers may share."""

from __future__ import annotations

import itertools
from types import SimpleNamespace
from typing import Any

from gunicorn.config import Config
from gunicorn.workers.sync import SyncWorker

from deploy.rolling import farthest, spread_recycling

WORKERS = 3
BASE, JITTER = 10_000, 1_000  # deploy/gunicorn.conf.py's


def _arbiter() -> Any:
    """What pre_fork reads of gunicorn's arbiter: its configuration and its live workers."""
    cfg = Config()
    cfg.set("max_requests", BASE)
    cfg.set("max_requests_jitter", JITTER)
    return SimpleNamespace(cfg=cfg, WORKERS={})


def _spawn(arbiter: Any, pid: int) -> SyncWorker:
    """As gunicorn's arbiter does: the worker made, pre_fork, then counted among the live."""
    worker = SyncWorker(pid, 1, [], None, 10, arbiter.cfg, None)
    spread_recycling(arbiter, worker)
    arbiter.WORKERS[pid] = worker
    return worker


def _points(arbiter: Any) -> list[int]:
    return sorted(worker.max_requests for worker in arbiter.WORKERS.values())


def test_three_workers_recycle_far_apart_however_often_they_are_replaced():
    arbiter = _arbiter()
    for pid in range(WORKERS):
        _spawn(arbiter, pid)
    assert _points(arbiter) == [BASE, BASE + JITTER // 2, BASE + JITTER]

    # A worker recycled, its replacement forked: the oldest, the youngest, the middle one, in turn.
    for pid in range(WORKERS, WORKERS + 60):
        live = sorted(arbiter.WORKERS, key=lambda live_pid: arbiter.WORKERS[live_pid].max_requests)
        del arbiter.WORKERS[live[pid % WORKERS]]
        _spawn(arbiter, pid)
        points = _points(arbiter)
        spacing = min(later - earlier for earlier, later in itertools.pairwise(points))
        assert spacing >= JITTER // 2, points


def test_during_a_release_the_new_workers_take_points_between_the_old():
    arbiter = _arbiter()
    for pid in range(2 * WORKERS):  # deploy.release doubles the workers for a moment
        _spawn(arbiter, pid)
    points = _points(arbiter)
    assert len(set(points)) == len(points)
    # Each new point halves a gap left: six workers are an eighth of the range apart at least.
    assert min(b - a for a, b in itertools.pairwise(points)) >= JITTER // 8


def test_the_farthest_point_is_the_lowest_of_equals():
    assert farthest([], JITTER) == 0
    assert farthest([0], JITTER) == JITTER
    assert farthest([0, JITTER], JITTER) == JITTER // 2
    assert farthest([500], JITTER) == 0
    assert farthest([], 0) == 0  # no jitter: the one point there is


def test_without_max_requests_nothing_is_set():
    arbiter = _arbiter()
    arbiter.cfg.set("max_requests", 0)
    worker = SyncWorker(1, 1, [], None, 10, arbiter.cfg, None)
    before = worker.max_requests
    spread_recycling(arbiter, worker)
    assert worker.max_requests == before
