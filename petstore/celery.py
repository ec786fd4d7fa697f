"""The task queue's app: ``celery -A petstore worker --beat`` runs the webhooks' tasks, its
settings being Django's ``CELERY_*``."""

from __future__ import annotations

import os

from celery import Celery, Task
from celery.signals import task_postrun

from petstore.metrics import TASKS

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "petstore.settings")

app = Celery("petstore")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.conf.beat_schedule = {
    "dispatch": {"task": "webhooks.tasks.dispatch", "schedule": 0.25},
    "purge": {"task": "webhooks.tasks.purge", "schedule": 3600.0},
}


@task_postrun.connect
def count_task(task: Task, state: str | None = None, **_: object) -> None:
    """Every task run, by its final state (SUCCESS, FAILURE, RETRY…), for the operator."""
    TASKS.labels(task.name, (state or "unknown").lower()).inc()
