"""The shapes of ``GET /v1/rate_limit``'s answer."""

from __future__ import annotations

from rest_framework import serializers


class PlanSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="`free`, `pro`, `business` or `enterprise`.")
    name = serializers.CharField()


class RateLimitWindowSerializer(serializers.Serializer):
    name = serializers.CharField(
        help_text="`minute` or `day`: the window's name in the `RateLimit` headers."
    )
    limit = serializers.IntegerField(help_text="Requests the window admits.")
    used = serializers.IntegerField(help_text="Requests it has admitted so far.")
    remaining = serializers.IntegerField(help_text="Requests it still admits.")
    reset = serializers.IntegerField(help_text="Unix time, in seconds, at which it ends.")
    seconds = serializers.IntegerField(help_text="Its length in seconds (60 or 86400).")


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
