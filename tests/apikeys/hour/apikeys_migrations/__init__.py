"""The apikeys migrations as they are, read from their own directory, and the hour's after
them (settings.MIGRATION_MODULES points apikeys here)."""

from pathlib import Path

import apikeys.migrations

__path__ = [str(Path(__file__).parent), *apikeys.migrations.__path__]
