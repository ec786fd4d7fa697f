"""The service as a later 1.x may be, for tests only: each addition the compatibility promise
allows (docs/compatibility.md), made as a newcomer makes it: a window (``tests.apikeys.new_window``,
reused), an event type (``settings``), a field on Pet with its migration (``models``,
``pets_migrations``), and an error code (``errors``). tests/clients/test_released_sdks.py runs
``against_it.py`` in a process of its own under these settings."""
