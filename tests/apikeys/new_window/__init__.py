"""A window added as a newcomer adds one, for tests only: a quarter of an hour, its row in the
table (``settings``), its Plan and Account fields (``models``) and its migration after the
apikeys ones (``apikeys_migrations``), in a process of its own (tests/apikeys/test_a_new_window.py
runs ``every_place.py`` there). Not the hour, which a real change may add."""
