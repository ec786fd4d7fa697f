from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from apikeys import services
from apikeys.models import Account, KeyKind, Plan, PlanCode
from apikeys.models.accounts import custom_limits_errors
from apikeys.windows import WINDOWS
from audit.services import Actor

# How the trail names this command's changes.
BY = Actor("command:createapikey")


class Command(BaseCommand):
    help = (
        "Issue an API key on a plan. The key is printed once, as the last line of standard "
        "output; only its digest is stored."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--plan", required=True, choices=PlanCode.values)
        parser.add_argument("--name", default="", help="A label for the key.")
        parser.add_argument(
            "--account",
            help="Name or id of an existing account; without it a new account is made.",
        )
        for window in WINDOWS:
            parser.add_argument(
                f"--per-{window.name}", type=int, help=f"Enterprise limit per {window.period}."
            )
        parser.add_argument("--expires-in-days", type=int, help="Expire the key after N days.")
        parser.add_argument(
            "--scopes",
            action="append",
            help="Comma-separated scopes, e.g. pets:read,orders:read (may be repeated). "
            "Default: every scope but categories:write for a secret key, pets:read for a "
            "publishable one.",
        )
        parser.add_argument(
            "--publishable",
            action="store_true",
            help="A read-only key for web pages (petstore_pub_…); needs --origin.",
        )
        parser.add_argument(
            "--origin",
            action="append",
            default=[],
            metavar="URL",
            help="A web origin the publishable key may be used from, e.g. "
            "https://shelter.example (may be repeated).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        plan = Plan.objects.get(code=options["plan"])
        limits = {w.per: options[w.per] for w in WINDOWS}
        if any(value is not None for value in limits.values()) and not plan.has_custom_limits:
            flags = " and ".join(f"--per-{w.name}" for w in WINDOWS)
            raise CommandError(f"{flags} are for the enterprise plan only.")
        expires_in_days = options["expires_in_days"]
        if expires_in_days is not None and not 1 <= expires_in_days <= services.MAX_EXPIRY_DAYS:
            raise CommandError(
                f"--expires-in-days must be between 1 and {services.MAX_EXPIRY_DAYS}."
            )

        scopes = None
        if options["scopes"]:
            scopes = [s.strip() for part in options["scopes"] for s in part.split(",") if s.strip()]
        kind = KeyKind.PUBLISHABLE if options["publishable"] else KeyKind.SECRET

        try:
            # Checked before any account is made or changed: a refused key changes nothing.
            services.apikey_access(kind=kind, scopes=scopes, origins=options["origin"])
            account = self._account(options, plan, limits)
            issued = services.apikey_issue(
                account=account,
                name=options["name"],
                expires_in=timedelta(days=expires_in_days) if expires_in_days else None,
                kind=kind,
                scopes=scopes,
                origins=options["origin"],
                by=BY,
            )
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from None
        key = issued.api_key
        origins = f", origins {' '.join(key.origin_list)}" if key.origin_list else ""
        self.stdout.write(
            f"Issued {key.kind} key {key.prefix}… for account {account.name} "
            f"(#{account.pk}, {plan.name} plan), scopes {' '.join(key.scope_list)}{origins}. "
            "It is shown once, below:"
        )
        self.stdout.write(issued.raw)

    def _account(
        self, options: dict[str, Any], plan: Plan, limits: dict[str, int | None]
    ) -> Account:
        reference = options["account"]
        if reference is None:
            values = {w.custom_field: limits[w.per] for w in WINDOWS}
            errors = custom_limits_errors(plan, values)
            if errors:
                flags = {w.custom_field: f"--per-{w.name}" for w in WINDOWS}
                raise CommandError(
                    "; ".join(f"{flags[field]}: {message}" for field, message in errors.items())
                )
            return services.account_create(
                name=options["name"] or "API account", plan=plan, email="", by=BY, **limits
            )
        lookup = {"pk": int(reference)} if reference.isdigit() else {"name": reference}
        try:
            account = Account.objects.get(**lookup)
        except Account.DoesNotExist:
            raise CommandError(f"No account {reference!r}.") from None
        except Account.MultipleObjectsReturned:
            raise CommandError(f"Several accounts are named {reference!r}; use its id.") from None
        if account.plan_id != plan.pk or any(value is not None for value in limits.values()):
            services.account_set_plan(account=account, plan=plan, by=BY, **limits)
        return account
