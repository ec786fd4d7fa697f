"""The pets migrations as they are, read from their own directory, and the field's after the
last of them (settings.MIGRATION_MODULES points pets here)."""

from pathlib import Path

import pets.migrations

__path__ = [str(Path(__file__).parent), *pets.migrations.__path__]

# The last of the pets migrations, which the field's follows.
LAST = max(path.stem for path in Path(pets.migrations.__file__).parent.glob("0*.py"))
