from apikeys.models.accounts import Account, Plan, PlanCode
from apikeys.models.api_keys import (
    ALL_SCOPES,
    LAST_USED_RESOLUTION,
    PUBLISHABLE_DEFAULT_SCOPES,
    SECRET_DEFAULT_SCOPES,
    ApiKey,
    ApiKeyQuerySet,
    KeyKind,
    KeyState,
    Scope,
)
from apikeys.models.bans import Ban, BanQuerySet
from apikeys.models.usage import DailyUsage, DailyUsageQuerySet
from apikeys.origins import normalize_origin, normalize_origins
from apikeys.windows import Limits

__all__ = [
    "ALL_SCOPES",
    "LAST_USED_RESOLUTION",
    "PUBLISHABLE_DEFAULT_SCOPES",
    "SECRET_DEFAULT_SCOPES",
    "Account",
    "ApiKey",
    "ApiKeyQuerySet",
    "Ban",
    "BanQuerySet",
    "DailyUsage",
    "DailyUsageQuerySet",
    "KeyKind",
    "KeyState",
    "Limits",
    "Plan",
    "PlanCode",
    "Scope",
    "normalize_origin",
    "normalize_origins",
]
