"""Issuing and revoking keys, and opening accounts: the workflows behind the commands and admin.

Each change is recorded in the trail (``audit``) here, by whoever ``by`` names (``system`` when
no one is), so that admin actions, bulk actions and commands alike leave an entry.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from apikeys import keys
from apikeys.limiter import BAN_STRIKES, Subject, limiter
from apikeys.models import (
    PUBLISHABLE_DEFAULT_SCOPES,
    SECRET_DEFAULT_SCOPES,
    Account,
    ApiKey,
    Ban,
    KeyKind,
    Plan,
)
from apikeys.records import KeyRecord
from apikeys.windows import WINDOWS
from audit.services import Actor, changes_between, record_by

# Keys live at most this long (and a date this far off stays within every datetime's range).
MAX_EXPIRY_DAYS = 3650


@dataclass(frozen=True)
class IssuedKey:
    """A new key and its raw value, which exists only here: it is never stored."""

    api_key: ApiKey
    raw: str


def _account_facts(account: Account) -> dict[str, Any]:
    """What the trail keeps of an account's plan and limits."""
    custom = {w.custom_field: getattr(account, w.custom_field) for w in WINDOWS}
    return {"plan": account.plan.code, **custom}


def _custom_limits(limits: dict[str, int | None]) -> dict[str, int | None]:
    """An account's own limits given as ``per_<window>`` (``per_minute=…``), by its fields."""
    unknown = set(limits) - {w.per for w in WINDOWS}
    if unknown:
        raise TypeError(f"no such window: {', '.join(sorted(unknown))}")
    return {w.custom_field: limits.get(w.per) for w in WINDOWS}


def _record_account_change(account: Account, before: dict[str, Any], by: Actor | None) -> None:
    changes = changes_between(before, _account_facts(account))
    if changes:
        action = "account.plan_changed" if "plan" in changes else "account.limits_changed"
        record_by(by, action, account, changes)


@transaction.atomic
def account_create(
    *,
    name: str,
    plan: Plan,
    email: str = "",
    by: Actor | None = None,
    **limits: int | None,
) -> Account:
    """``limits``: an Enterprise account's own, one per window (``per_minute=…``)."""
    account = Account(name=name, email=email, plan=plan, **_custom_limits(limits))
    account.full_clean()
    account.save()
    record_by(by, "account.created", account, changes_between({}, _account_facts(account)))
    return account


@transaction.atomic
def account_set_plan(
    *,
    account: Account,
    plan: Plan,
    by: Actor | None = None,
    **limits: int | None,
) -> Account:
    """Move an account to a plan; the next request is limited by it, in every process.
    ``limits``: as ``account_create``'s; a window not given keeps the account's own limit."""
    before = _account_facts(account)
    account.plan = plan
    if plan.has_custom_limits:
        for field, value in _custom_limits(limits).items():
            setattr(account, field, value or getattr(account, field))
    account.full_clean()
    account.save()
    _record_account_change(account, before, by)
    return account


@transaction.atomic
def account_save(*, account: Account, by: Actor | None = None) -> Account:
    """Save an account as the admin's form changed it (a new one too), recording any change of
    its plan or limits."""
    if account.pk is None:
        account.save()
        record_by(by, "account.created", account, changes_between({}, _account_facts(account)))
        return account
    before = _account_facts(Account.objects.select_related("plan").get(pk=account.pk))
    account.save()
    _record_account_change(account, before, by)
    return account


@transaction.atomic
def account_delete(*, account: Account, by: Actor | None = None) -> None:
    """Delete an account, and with it its keys and endpoints, leaving their prefixes and URLs
    in the trail."""
    prefixes = list(account.api_keys.order_by("id").values_list("prefix", flat=True))
    urls = list(account.webhook_endpoints.order_by("id").values_list("url", flat=True))
    changes = {field: [value, None] for field, value in _account_facts(account).items()}
    changes.update(keys=[prefixes, []], endpoints=[urls, []])
    record_by(by, "account.deleted", account, changes)
    account.delete()


@transaction.atomic
def plan_save(*, plan: Plan, by: Actor | None = None) -> Plan:
    """Save a plan's limits as the admin's form changed them: every account on it is limited
    by them from its next request on."""
    facts = ("name", *(w.plan_field for w in WINDOWS))
    before = Plan.objects.values(*facts).get(pk=plan.pk)
    plan.save()
    changes = changes_between(before, {field: getattr(plan, field) for field in facts})
    if changes:
        record_by(by, "plan.limits_changed", plan, changes)
    return plan


def apikey_access(
    *,
    kind: str = KeyKind.SECRET,
    scopes: Iterable[str] | None = None,
    origins: Iterable[str] = (),
) -> ApiKey:
    """An unsaved key carrying this kind, scopes and origins, checked (ValidationError naming
    the field otherwise). Without ``scopes``: every scope but ``categories:write`` for a secret
    key, ``pets:read`` for a publishable one."""
    candidate = ApiKey(kind=kind)
    if scopes is None:
        scopes = (
            PUBLISHABLE_DEFAULT_SCOPES if kind == KeyKind.PUBLISHABLE else SECRET_DEFAULT_SCOPES
        )
    candidate.set_scopes(scopes)
    try:
        candidate.set_origins(origins)
    except ValidationError as exc:
        raise ValidationError({"allowed_origins": exc.messages}) from None
    candidate.clean()
    return candidate


def _key_facts(api_key: ApiKey) -> dict[str, Any]:
    """What the trail keeps of a key: never its raw value or digest."""
    return {
        "prefix": api_key.prefix,
        "name": api_key.name,
        "kind": api_key.kind,
        "scopes": api_key.scope_list,
        "origins": api_key.origin_list,
        "expires_at": api_key.expires_at,
    }


def _new_key(
    *, account: Account, name: str, expires_at: datetime | None, access: ApiKey
) -> IssuedKey:
    raw = keys.generate_key(publishable=access.is_publishable)
    api_key = ApiKey.objects.create(
        account=account,
        name=name,
        prefix=keys.display_prefix(raw),
        digest=keys.digest(raw),
        expires_at=expires_at,
        kind=access.kind,
        scopes=access.scopes,
        allowed_origins=access.allowed_origins,
    )
    return IssuedKey(api_key=api_key, raw=raw)


@transaction.atomic
def apikey_issue(
    *,
    account: Account,
    name: str = "",
    expires_in: timedelta | None = None,
    kind: str = KeyKind.SECRET,
    scopes: Iterable[str] | None = None,
    origins: Iterable[str] = (),
    by: Actor | None = None,
) -> IssuedKey:
    """A new key; raises ValidationError, issuing nothing, for scopes or origins its kind
    cannot have (a publishable key is read-only and needs an origin)."""
    access = apikey_access(kind=kind, scopes=scopes, origins=origins)
    expires_at = timezone.now() + expires_in if expires_in is not None else None
    issued = _new_key(account=account, name=name, expires_at=expires_at, access=access)
    record_by(by, "apikey.issued", issued.api_key, changes_between({}, _key_facts(issued.api_key)))
    return issued


@transaction.atomic
def apikey_save(*, api_key: ApiKey, by: Actor | None = None) -> ApiKey:
    """Save a key as the admin's form changed it (name, expiry, scopes, origins), recording
    what changed; an expiry's change is an ``apikey.expiry_changed``."""
    before = _key_facts(ApiKey.objects.get(pk=api_key.pk))
    api_key.save()
    changes = changes_between(before, _key_facts(api_key))
    if changes:
        action = "apikey.expiry_changed" if "expires_at" in changes else "apikey.changed"
        record_by(by, action, api_key, changes)
    return api_key


def apikey_replacement_access(
    *,
    api_key: ApiKey,
    kind: str | None = None,
    scopes: Iterable[str] | None = None,
    origins: Iterable[str] | None = None,
) -> dict[str, Any]:
    """The kind, scopes and origins of ``api_key``'s replacement: its own, but for those given.
    A key rotated into another kind starts from that kind's default scopes."""
    kind = kind or api_key.kind
    if scopes is None and kind == api_key.kind:
        scopes = api_key.scope_list
    if origins is None:
        origins = api_key.origin_list if kind == KeyKind.PUBLISHABLE else ()
    return {"kind": kind, "scopes": scopes, "origins": origins}


@transaction.atomic
def apikey_rotate(
    *,
    api_key: ApiKey,
    grace: timedelta,
    kind: str | None = None,
    scopes: Iterable[str] | None = None,
    origins: Iterable[str] | None = None,
    by: Actor | None = None,
) -> IssuedKey:
    """Issue a replacement with the same name, expiry, kind, scopes and origins, unless told
    otherwise; the old key stops after ``grace``."""
    old = ApiKey.objects.select_for_update().get(pk=api_key.pk)
    access = apikey_access(
        **apikey_replacement_access(api_key=old, kind=kind, scopes=scopes, origins=origins)
    )
    issued = _new_key(account=old.account, name=old.name, expires_at=old.expires_at, access=access)
    new = issued.api_key
    record_by(
        by,
        "apikey.issued",
        new,
        {**changes_between({}, _key_facts(new)), "replaces": [None, old.prefix]},
    )
    was = old.expires_at
    ends = timezone.now() + grace
    if old.expires_at is None or old.expires_at > ends:
        old.expires_at = ends
        old.save(update_fields=["expires_at"])
    record_by(
        by,
        "apikey.rotated",
        old,
        {
            **changes_between({"expires_at": was}, {"expires_at": old.expires_at}),
            "replaced_by": [None, new.prefix],
        },
    )
    api_key.expires_at = old.expires_at
    return issued


def apikeys_rotate(
    *,
    api_keys: Sequence[ApiKey],
    grace: timedelta,
    kind: str | None = None,
    scopes: Iterable[str] | None = None,
    origins: Iterable[str] | None = None,
    by: Actor | None = None,
) -> list[IssuedKey]:
    """Rotate every key as ``apikey_rotate`` does, or none: each replacement is checked before
    any is issued, and a ValidationError (its messages led by the key's prefix) issues nothing."""
    errors: dict[str, list[str]] = {}
    for api_key in api_keys:
        try:
            apikey_access(
                **apikey_replacement_access(
                    api_key=api_key, kind=kind, scopes=scopes, origins=origins
                )
            )
        except ValidationError as exc:
            for field, messages in exc.message_dict.items():
                errors.setdefault(field, []).extend(f"{api_key.prefix}…: {m}" for m in messages)
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        return [
            apikey_rotate(
                api_key=api_key, grace=grace, kind=kind, scopes=scopes, origins=origins, by=by
            )
            for api_key in api_keys
        ]


@transaction.atomic
def account_suspend(*, account: Account, by: Actor | None = None) -> None:
    """Refuse every key of the account from its next request on."""
    locked = Account.objects.select_for_update().get(pk=account.pk)
    if locked.suspended_at is None:
        locked.suspended_at = timezone.now()
        locked.save(update_fields=["suspended_at"])  # apikeys.signals: every process hears
        record_by(by, "account.suspended", locked, {"suspended_at": [None, locked.suspended_at]})
    account.suspended_at = locked.suspended_at


@transaction.atomic
def account_reactivate(*, account: Account, by: Actor | None = None) -> None:
    locked = Account.objects.select_for_update().get(pk=account.pk)
    was = locked.suspended_at
    locked.suspended_at = None
    locked.save(update_fields=["suspended_at"])
    if was is not None:
        record_by(by, "account.reactivated", locked, {"suspended_at": [was, None]})
    account.suspended_at = None


@transaction.atomic
def apikey_revoke(*, api_key: ApiKey, revoked_by: Any = None, by: Actor | None = None) -> bool:
    """Revoke a key from the next request on; False when it already was."""
    locked = ApiKey.objects.select_for_update().get(pk=api_key.pk)
    revoking = locked.revoked_at is None
    if revoking:
        locked.revoked_at = timezone.now()
        locked.revoked_by = revoked_by
        locked.save(update_fields=["revoked_at", "revoked_by"])
        record_by(by, "apikey.revoked", locked, {"revoked_at": [None, locked.revoked_at]})
    api_key.revoked_at, api_key.revoked_by = locked.revoked_at, locked.revoked_by
    return revoking


@transaction.atomic
def ban_record(
    *,
    api_key: ApiKey | KeyRecord,
    started_at: datetime,
    ends_at: datetime,
    number: int,
    by: Actor | None = None,
) -> Ban:
    """Record a ban the limiter has just put in force, for account managers to see. Both
    instants come from the limiter, so the record says exactly what is in force."""
    minutes = int((ends_at - started_at).total_seconds()) // 60
    ban = Ban.objects.create(
        api_key_id=api_key.pk,
        account_id=api_key.account_id,
        started_at=started_at,
        ends_at=ends_at,
        reason=(
            f"{BAN_STRIKES} requests within a minute while rate limited "
            f"(ban {number} within a day: {minutes} minutes)"
        ),
    )
    record_by(
        by, "ban.recorded", ban, {"started_at": [None, started_at], "ends_at": [None, ends_at]}
    )
    return ban


@transaction.atomic
def ban_lift(*, ban: Ban, lifted_by: object | None = None, by: Actor | None = None) -> None:
    """End a ban now, in every process."""
    limiter.lift_ban(Subject.account(ban.account_id, ban.account.limits, key_id=ban.api_key_id))
    now = timezone.now()
    if Ban.objects.filter(pk=ban.pk, lifted_at__isnull=True).update(
        lifted_at=now, lifted_by=lifted_by
    ):
        record_by(by, "ban.lifted", ban, {"lifted_at": [None, now]})
