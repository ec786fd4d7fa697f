"""What the service tells its operators: the logs, and who may read GET /metrics."""

from __future__ import annotations

import ipaddress
import logging

from django.utils.log import DEFAULT_LOGGING

from petstore.settings.environment import env_bool, env_int, env_list, env_str

# GET /metrics (petstore.metrics): for these addresses or networks, or with this bearer token.
PETSTORE_METRICS_ALLOW = [
    ipaddress.ip_network(network, strict=False)
    for network in env_list("PETSTORE_METRICS_ALLOW", ["127.0.0.1", "::1"])
]
PETSTORE_METRICS_TOKEN = env_str("PETSTORE_METRICS_TOKEN")
# A Celery worker started apart from deploy.serve counts in a directory no web process reads,
# so it serves its counts itself, on 127.0.0.1 at this port (petstore.celery); unset, it does
# not.
PETSTORE_WORKER_METRICS_PORT = env_int("PETSTORE_WORKER_METRICS_PORT", 0) or None
# Metrics read from the database at each scrape, by the apps that own them.
PETSTORE_METRICS_COLLECTORS = ["webhooks.metrics.WebhookCollector"]
# While this file exists the host is draining (deploy.serve makes it on SIGTERM): /readyz answers
# 503 so that the load balancer sends no new clients, and every other request is still served.
PETSTORE_DRAIN_FILE = env_str("PETSTORE_DRAIN_FILE")

# No format writes a thread or a process name, so log records need not collect them (the
# logging HOWTO's "Optimization" switches).
logging.logThreads = False
logging.logMultiprocessing = False

REQUEST_LOG = env_bool("REQUEST_LOG", True)
# runserver's (make run's) own line of each request is the JSON line's twin: its logger is
# Django's, given a filter that drops those lines while the JSON ones are written.
_SERVER = DEFAULT_LOGGING["handlers"]["django.server"]
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
        "django.server": dict(DEFAULT_LOGGING["formatters"]["django.server"]),
    },
    "filters": {
        "not_a_request_line": {
            "()": "django.utils.log.CallbackFilter",
            "callback": "ext://petstore.requestlog.not_a_request_line",
        },
        "not_an_outage_line": {
            "()": "django.utils.log.CallbackFilter",
            "callback": "ext://petstore.errors.not_an_outage_line",
        },
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain"},
        "requests": {"class": "petstore.requestlog.JsonLineHandler"},
        "django.server": {**_SERVER, "filters": ["not_a_request_line"] if REQUEST_LOG else []},
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        # Django's own console handler (DEBUG only) would write its lines a second time
        # beside the root's: they are written by the root's alone.
        "django": {"handlers": []},
        "django.request": {"level": "ERROR", "filters": ["not_an_outage_line"]},
        "django.server": dict(DEFAULT_LOGGING["loggers"]["django.server"]),
        # One JSON line per request; REQUEST_LOG=0 turns it off.
        "petstore.requests": {
            "handlers": ["requests"],
            "propagate": False,
            "level": "INFO" if REQUEST_LOG else "WARNING",
        },
    },
}
