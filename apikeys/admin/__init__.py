"""The account managers' desk: accounts and plans, keys (issue, rotate, revoke), bans.

A raw key exists only in the response that issues it: it is never stored, logged, put in a
message, a cookie or the session. Forms that issue keys carry a one-time token kept in the
session, so that reloading the result page (which re-posts the form) shows nothing again and
issues nothing more (``tokens``).

Each module has one job: ``plans``, ``accounts``, ``keys`` and ``bans`` register a model's
admin; ``account_keys`` and ``account_usage`` are the account admin's key views and usage
figures; ``filters``, ``forms``, ``display`` (a key's cells, for the key list and the account
page alike), ``rotation`` (the one path every rotation takes) and ``tokens`` serve them.
"""

from __future__ import annotations

# Importing the admins registers them with the site.
from apikeys.admin import accounts, bans, keys, plans

__all__ = ["accounts", "bans", "keys", "plans"]
