from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apikeys import services
from apikeys.models import ApiKey
from audit.services import Actor


class Command(BaseCommand):
    help = "Revoke an API key, named by the key itself or by its display prefix."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("key_or_prefix")

    def handle(self, *args: Any, **options: Any) -> None:
        matches = list(ApiKey.objects.matching(options["key_or_prefix"])[:2])
        if not matches:
            raise CommandError("No API key matches that key or prefix.")
        if len(matches) > 1:
            raise CommandError("That prefix names several keys; give the whole key.")
        api_key = matches[0]
        if services.apikey_revoke(api_key=api_key, by=Actor("command:revokeapikey")):
            self.stdout.write(f"Revoked {api_key.prefix}… (account {api_key.account}).")
        else:
            self.stdout.write(f"{api_key.prefix}… was already revoked; nothing changed.")
