from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from pets import services
from pets.models import Category, Pet, PetStatus
from petstore.admin import SavesItsFieldsOnly, clipped, short_date
from petstore.exceptions import DomainError


@admin.register(Category)
class CategoryAdmin(admin.ModelAdmin):
    list_display = ("category_name", "summary")
    search_fields = ("name",)

    # Partners hold categories' ids (their animals', their filters): the feed says when one is
    # added, and nothing could tell them it was gone.
    def has_delete_permission(self, request: HttpRequest, obj: Category | None = None) -> bool:
        return False

    @admin.display(description="name", ordering="name")
    def category_name(self, category: Category) -> str:
        return clipped(category.name)

    @admin.display(description="description")
    def summary(self, category: Category) -> str:
        return clipped(category.description)

    def save_model(
        self, request: HttpRequest, obj: Category, form: forms.ModelForm, change: bool
    ) -> None:
        if change:
            super().save_model(request, obj, form, change)
        else:
            services.category_add(obj)  # with its event


class PetAdminForm(forms.ModelForm):
    class Meta:
        model = Pet
        fields = ("name", "category", "breed", "status")

    def clean_status(self) -> str:
        status = self.cleaned_data["status"]
        if self.instance.pk is not None:
            refusal = services.pet_status_refusal(self.instance, status)
            if refusal is not None:
                raise forms.ValidationError(refusal)
        return status


@admin.register(Pet)
class PetAdmin(SavesItsFieldsOnly):
    form = PetAdminForm
    moved_by_services = ("status",)
    # Status first after the name: it is what staff change here.
    list_display = ("pet_name", "status", "category_name", "breed", "created")
    list_filter = ("status", "category")
    search_fields = ("name", "breed")
    list_select_related = ("category",)
    readonly_fields = ("created_at",)
    actions = ("mark_available", "mark_pending")

    def has_delete_permission(self, request: HttpRequest, obj: Pet | None = None) -> bool:
        return False  # an animal leaves through its adoption; the feed has no way to say gone

    def save_model(self, request: HttpRequest, pet: Pet, form: forms.Form, change: bool) -> None:
        """Added with its event; changed field by field, the status through the service that
        moves it (its event, its lock against an order placed meanwhile)."""
        if not change:
            services.pet_add(pet)
            return
        super().save_model(request, pet, form, change)
        if "status" in form.changed_data:
            try:
                services.pet_change_status(pet_id=pet.pk, status=pet.status)
            except DomainError as exc:  # an order took the animal after the form was checked
                self.message_user(request, exc.message, messages.ERROR)

    @admin.display(description="name", ordering="name")
    def pet_name(self, pet: Pet) -> str:
        return clipped(pet.name)

    @admin.display(description="category", ordering="category__name")
    def category_name(self, pet: Pet) -> str:
        return clipped(pet.category.name)

    @admin.display(description="created", ordering="created_at")
    def created(self, pet: Pet) -> str:
        return short_date(pet.created_at)

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
