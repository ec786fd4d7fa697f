"""Staff members in the admin, with one more action for superusers: reset a member's second
factor (a lost phone), recorded in the trail. The second factors themselves are only read here:
each member sets up their own (staff.views), and the reset is the one way to take it away."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest
from django_otp.plugins.otp_static.admin import StaticDeviceAdmin
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.admin import TOTPDeviceAdmin
from django_otp.plugins.otp_totp.models import TOTPDevice

from audit.services import record
from petstore.addresses import client_address
from staff import devices

admin.site.unregister([User, TOTPDevice, StaticDevice])


@admin.register(User)
class StaffAdmin(UserAdmin):
    actions = ["reset_second_factor"]

    @admin.action(
        description="Reset second factor (they set it up again at their next sign-in)",
        permissions=["reset_second_factor"],
    )
    def reset_second_factor(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        for user in queryset:
            removed = devices.reset(user)
            record(
                actor=request.user.get_username(),
                action="staff.devices_reset",
                target=user,
                address=client_address(request),
                changes={"devices": [removed, []]},
            )
        self.message_user(
            request, f"Second factor reset for {queryset.count()} member(s).", messages.SUCCESS
        )

    def has_reset_second_factor_permission(self, request: HttpRequest) -> bool:
        return request.user.is_superuser


class ReadOnlyDevice:
    """A device added, changed or deleted here would bypass the member's own set-up, or the
    reset and its trail entry."""

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(TOTPDevice)
class AuthenticatorAdmin(ReadOnlyDevice, TOTPDeviceAdmin):
    pass


@admin.register(StaticDevice)
class RecoveryCodesAdmin(ReadOnlyDevice, StaticDeviceAdmin):
    pass
