"""The trail: who changed a key, an account, a webhook endpoint or signed in, from where, when,
and what changed (``services.record``), kept a year and read in the admin."""
