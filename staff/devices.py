"""A member's second factor: an authenticator app's TOTP device, and ten recovery codes, each
good once. What the views and the admin's reset do with them."""

from __future__ import annotations

import base64

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django_otp.models import Device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

RECOVERY_CODES = 10
AUTHENTICATOR = "Authenticator app"


def confirmed(user: AbstractBaseUser) -> list[Device]:
    """The member's devices that can verify a sign-in."""
    return [
        *TOTPDevice.objects.devices_for_user(user, confirmed=True),
        *StaticDevice.objects.devices_for_user(user, confirmed=True),
    ]


def pending_authenticator(user: AbstractBaseUser) -> TOTPDevice:
    """The authenticator being set up: made once, shown until a code from it confirms it."""
    device, _ = TOTPDevice.objects.get_or_create(
        user=user, confirmed=False, defaults={"name": AUTHENTICATOR}
    )
    return device


def secret_text(device: TOTPDevice) -> str:
    """The device's key as authenticator apps take it typed in: base32, in groups of four."""
    text = base64.b32encode(device.bin_key).decode().rstrip("=")
    return " ".join(text[i : i + 4] for i in range(0, len(text), 4))


@transaction.atomic
def confirm(device: TOTPDevice, code: str) -> list[str] | None:
    """Confirm the authenticator with a code from it, and make the member's recovery codes;
    returns them (shown once, never again), or None if the code is wrong."""
    device = TOTPDevice.objects.select_for_update().get(pk=device.pk)
    if not device.verify_token(code):
        return None
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    StaticDevice.objects.filter(user=device.user).delete()
    recovery = StaticDevice.objects.create(user=device.user, name="Recovery codes")
    codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
    StaticToken.objects.bulk_create(StaticToken(device=recovery, token=code) for code in codes)
    return codes


@transaction.atomic
def verify(user: AbstractBaseUser, code: str) -> Device | None:
    """The device that accepts ``code``: the authenticator's six digits, or a recovery code
    (spent by using it). Each device is locked while it checks, so that two sign-ins cannot
    both spend one code; django-otp slows a device down after each failure."""
    code = code.strip().replace(" ", "")
    model: type[Device] = TOTPDevice if len(code) == 6 and code.isdigit() else StaticDevice
    for device in model.objects.devices_for_user(user, confirmed=True).select_for_update():
        if device.verify_token(code.lower() if model is StaticDevice else code):
            return device
    return None


def reset(user: AbstractBaseUser) -> list[str]:
    """Forget every device of the member's: they set one up again at their next sign-in, and
    the sessions verified with the old ones end (staff.middleware). Returns the names of those
    that were confirmed."""
    names = [device.name for device in confirmed(user)]
    for model in (TOTPDevice, StaticDevice):
        model.objects.filter(user=user).delete()
    return names
