"""A window added as a newcomer adds one, for tests only: an hour, its row in the table
(``settings``), its Plan and Account fields (``models``) and its migration (``apikeys_migrations``),
in a process of its own (tests/apikeys/test_a_new_window.py runs ``every_place.py`` there)."""
