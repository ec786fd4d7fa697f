"""The apikeys migrations as they are, read from their own directory, and the window's after the
last of them (settings.MIGRATION_MODULES points apikeys here)."""

from pathlib import Path

import apikeys.migrations

__path__ = [str(Path(__file__).parent), *apikeys.migrations.__path__]

# The last of the apikeys migrations, which the window's follows.
LAST = max(path.stem for path in Path(apikeys.migrations.__file__).parent.glob("0*.py"))
