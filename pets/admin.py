from __future__ import annotations

from django import forms
from django.contrib import admin

from pets.models import Category, Pet, can_change_status


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
        if self.instance.pk is not None and not can_change_status(self.instance.status, status):
            raise forms.ValidationError(
                f"An animal cannot go from {self.instance.status} to {status}."
            )
        return status


@admin.register(Pet)
class PetAdmin(admin.ModelAdmin):
    form = PetAdminForm
    list_display = ("name", "category", "status", "created_at")
    list_filter = ("status", "category")
    search_fields = ("name",)
    list_select_related = ("category",)
    readonly_fields = ("created_at",)
