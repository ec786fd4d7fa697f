"""The shapes of the account's own endpoints: ``GET /v1/rate_limit`` and ``GET /v1/usage``."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from apikeys.limiter.policy import DAY_THRESHOLDS
from apikeys.models.accounts import PlanCode
from apikeys.usage import RETENTION_DAYS, UsageDay
from apikeys.windows import WINDOWS, WindowSpec
from petstore.serializers import QueryIntegerField, QuerySerializer

# The windows' names, the choices of a window's ``name`` (``WindowName`` in the document).
WINDOW_NAMES = [window.name for window in WINDOWS]


class PlanSerializer(serializers.Serializer):
    code = serializers.ChoiceField(choices=PlanCode.choices)
    name = serializers.CharField()


class RateLimitWindowSerializer(serializers.Serializer):
    name = serializers.ChoiceField(
        choices=WINDOW_NAMES, help_text="The window's name in the `RateLimit` headers."
    )
    limit = serializers.IntegerField(help_text="Requests the window admits.")
    used = serializers.IntegerField(help_text="Requests it has admitted so far.")
    remaining = serializers.IntegerField(help_text="Requests it still admits.")
    reset = serializers.IntegerField(help_text="Unix time, in seconds, at which it ends.")
    seconds = serializers.IntegerField(
        help_text=f"Its length in seconds ({' or '.join(str(w.seconds) for w in WINDOWS)})."
    )


class BanSerializer(serializers.Serializer):
    endsAt = serializers.IntegerField(help_text="Unix time, in seconds, at which it ends.")
    retryAfter = serializers.IntegerField(help_text="Seconds until then.")


class RateLimitSerializer(serializers.Serializer):
    """Where the calling key's account stands against its plan, read without spending it."""

    plan = PlanSerializer()
    windows = RateLimitWindowSerializer(many=True)
    ban = BanSerializer(
        allow_null=True, help_text="The calling key's ban, while one is in force; else null."
    )


DEFAULT_USAGE_DAYS = 30


class UsageQuery(QuerySerializer):
    days = QueryIntegerField(
        min_value=1,
        max_value=RETENTION_DAYS,
        default=DEFAULT_USAGE_DAYS,
        help_text=f"How many UTC days, today included (1 to {RETENTION_DAYS}).",
    )


def _per(window: WindowSpec) -> str:
    """A window's limit as an answer names it: ``perMinute``, ``perDay``."""
    return "per" + window.name.title().replace("_", "")


class UsageDaySerializer(serializers.Serializer):
    """The calling account's requests on one UTC day, all its keys together."""

    date = serializers.DateField(read_only=True, help_text="The UTC day.")
    admitted = serializers.IntegerField(read_only=True, help_text="Requests admitted.")
    refused = serializers.IntegerField(
        read_only=True, help_text="Requests refused as over a limit (`rate_limited`)."
    )
    banned = serializers.IntegerField(
        read_only=True,
        help_text="Requests refused while the key was banned (`temporarily_banned`).",
    )

    def get_fields(self) -> dict[str, serializers.Field]:
        # And each window's limit that day, the windows of WINDOWS in order.
        fields = super().get_fields()
        for window in WINDOWS:
            fields[_per(window)] = serializers.IntegerField(
                read_only=True,
                allow_null=True,
                help_text=f"The plan's limit per {window.period} that day; null on a day "
                "without requests.",
            )
        return fields

    def to_representation(self, instance: UsageDay) -> dict[str, Any]:
        return {
            "date": instance.day.isoformat(),
            "admitted": instance.admitted,
            "refused": instance.refused,
            "banned": instance.banned,
            **{_per(window): instance.limit(window) for window in WINDOWS},
        }


class UsageThresholdSerializer(serializers.Serializer):
    """The account's day window, just past a share of its limit."""

    window = serializers.ChoiceField(
        choices=WINDOW_NAMES, read_only=True, help_text="The window it passed: `day`."
    )
    percent = serializers.IntegerField(
        read_only=True,
        help_text="The share of the limit passed, in percent: "
        + " or ".join(str(percent) for percent in DAY_THRESHOLDS)
        + ".",
    )
    limit = serializers.IntegerField(read_only=True, help_text="Requests the window admits.")
    used = serializers.IntegerField(
        read_only=True, help_text="Requests it had admitted when the share was passed."
    )
    date = serializers.DateField(read_only=True, help_text="The UTC day.")
