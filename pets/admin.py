from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from pets import services
from pets.models import Category, Pet, PetStatus
from petstore.exceptions import DomainError


@admin.register(Category)
class CategoryAdmin(admin.ModelAdmin):
    list_display = ("name", "description")
    search_fields = ("name",)


class PetAdminForm(forms.ModelForm):
    class Meta:
        model = Pet
        fields = ("name", "category", "status")

    def clean_status(self) -> str:
        status = self.cleaned_data["status"]
        if self.instance.pk is not None:
            refusal = services.pet_status_refusal(self.instance, status)
            if refusal is not None:
                raise forms.ValidationError(refusal)
        return status


@admin.register(Pet)
class PetAdmin(admin.ModelAdmin):
    form = PetAdminForm
    list_display = ("name", "category", "status", "created_at")
    list_filter = ("status", "category")
    search_fields = ("name",)
    list_select_related = ("category",)
    readonly_fields = ("created_at",)
    actions = ("mark_available", "mark_pending")

    @admin.action(description="Mark selected animals available", permissions=["change"])
    def mark_available(self, request: HttpRequest, queryset: QuerySet[Pet]) -> None:
        self._move(request, queryset, PetStatus.AVAILABLE)

    @admin.action(description="Mark selected animals pending", permissions=["change"])
    def mark_pending(self, request: HttpRequest, queryset: QuerySet[Pet]) -> None:
        self._move(request, queryset, PetStatus.PENDING)

    def _move(self, request: HttpRequest, queryset: QuerySet[Pet], status: str) -> None:
        moved = 0
        for pet in queryset:
            try:
                services.pet_change_status(pet_id=pet.pk, status=status)
            except DomainError as exc:
                self.message_user(request, exc.message, messages.ERROR)
                continue
            if pet.status != status:
                self.log_change(request, pet, f"Marked {status}")
                moved += 1
        if moved:
            self.message_user(request, f"{moved} animal(s) marked {status}.")
