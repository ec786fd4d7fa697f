"""The task queue's app: ``celery -A petstore worker --beat`` runs the webhooks' tasks, its
settings being Django's ``CELERY_*``."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "petstore.settings")

app = Celery("petstore")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.conf.beat_schedule = {
    "dispatch": {"task": "webhooks.tasks.dispatch", "schedule": 1.0},
    "purge": {"task": "webhooks.tasks.purge", "schedule": 3600.0},
}
