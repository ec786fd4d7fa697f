"""A webhook delivery task that loses the database logs one line, not a traceback: an outage
fails every task the worker runs meanwhile."""

from __future__ import annotations

import logging

import pytest

from webhooks import tasks

# Real connections are closed and reopened, so no test transaction can wrap them.
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def test_a_delivery_task_that_loses_the_database_logs_one_line_without_a_traceback(
    database_down, caplog, settings
):
    # The task asks again for the database until the run's lease would have ended.
    settings.PETSTORE_WEBHOOK_LEASE_SECONDS = 1
    with caplog.at_level(logging.INFO):
        tasks.deliver.apply(args=([1, 2],))

    lines = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert len(lines) == 1
    assert lines[0].exc_info is None
    assert "database" in lines[0].getMessage()
