"""`make run`'s demo key: kept beside the embedded database, so that every run prints the same
working key and yesterday's orders and endpoints stay with it."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from apikeys import services
from apikeys.models import ApiKey, KeyState, Plan, PlanCode
from audit.services import Actor
from petstore import embedded

NAME = "make run demo"
KEPT_IN = ".local-demo-key"
# How the trail names this command's changes.
BY = Actor("command:demo_key")


class Command(BaseCommand):
    help = (
        "Print `make run`'s demo key (a Free account's secret key), issued once and kept in "
        f"{KEPT_IN} beside the embedded database; --new issues another for the same account "
        "and revokes the one kept. The key is the last line of standard output."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--new", action="store_true", help="Issue a new key and revoke the one kept."
        )

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        embedded.require("demo_key", "issue a key with `manage.py createapikey`.")
        stored = embedded.local_file(KEPT_IN)
        raw = stored.read_text().strip() if stored.exists() else ""
        kept = ApiKey.objects.matching(raw).select_related("account").first() if raw else None
        active = kept is not None and kept.state(timezone.now()) == KeyState.ACTIVE
        if kept is not None and active and not options["new"]:
            self._show(kept, raw, "kept")
            return
        if kept is not None and active:
            services.apikey_revoke(api_key=kept, by=BY)
        # A new key for the account the kept one served, so that its orders and endpoints stay.
        account = kept.account if kept is not None else None
        if account is None or account.suspended_at is not None:
            plan = Plan.objects.get(code=PlanCode.FREE)
            account = services.account_create(name=NAME, plan=plan, by=BY)
        issued = services.apikey_issue(account=account, name=NAME, by=BY)
        embedded.keep(stored, issued.raw)
        self._show(issued.api_key, issued.raw, "new")

    def _show(self, key: ApiKey, raw: str, how: str) -> None:
        self.stdout.write(
            f"Demo key {key.prefix}… ({how}) for account {key.account.name} "
            f"(#{key.account_id}), kept in {KEPT_IN}:"
        )
        self.stdout.write(raw)
