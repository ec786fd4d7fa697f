"""Signed webhooks (Standard Webhooks), delivered at least once from task-queue workers.

A webhook endpoint is an account's URL and the event types it wants (``models``). The workers'
``dispatch`` task, run every quarter second, makes a delivery for each new event and each
endpoint that may see it, and hands due deliveries, in runs, to ``deliver`` tasks (``tasks``),
which post them (``delivery``: signed, to a public address only, no redirects) and schedule
the next try. The deliveries are rows in PostgreSQL, leased while a worker has them: the broker
only says what to do now, so a lost message, a killed worker or a restarted broker loses
nothing.
"""
