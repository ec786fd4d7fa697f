"""The settings, one module per concern: everything that varies between machines comes from the
environment, read through the helpers of `environment`.

A fresh clone runs with no environment at all (SQLite, in-process cache, DEBUG on); production
sets DATABASE_URL, REDIS_URL, SECRET_KEY and DEBUG=0.
"""

from petstore.settings.api import *  # noqa: F403
from petstore.settings.base import *  # noqa: F403
from petstore.settings.cache_and_queue import *  # noqa: F403
from petstore.settings.database import *  # noqa: F403
from petstore.settings.monitoring import *  # noqa: F403
from petstore.settings.security import *  # noqa: F403
from petstore.settings.staff import *  # noqa: F403
from petstore.settings.webhooks import *  # noqa: F403
