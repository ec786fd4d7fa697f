"""The forms that issue, rotate and edit keys."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from apikeys import services
from apikeys.models import ApiKey, KeyKind, normalize_origins
from petstore.scopes import Scope

DEFAULT_GRACE_HOURS = 24


class OriginsField(forms.CharField):
    """Web origins, one per line (or separated by spaces or commas), normalized."""

    widget = forms.Textarea(attrs={"rows": 3, "cols": 50})

    def clean(self, value: Any) -> list[str]:
        text = super().clean(value) or ""
        try:
            return normalize_origins(text.replace(",", " ").split())
        except ValidationError as exc:
            raise forms.ValidationError(exc.messages) from None


_ORIGINS_HELP = (
    "Publishable keys only: the web origins (scheme://host[:port]) whose pages may use the key, "
    "one per line. Requests from any other site's pages are refused."
)
# Where a key's validation errors (apikeys.services.apikey_access) go on these forms.
_ACCESS_FIELDS = {"scopes": "scopes", "allowed_origins": "origins", "kind": "kind"}


def access_errors(form: forms.Form, exc: ValidationError) -> None:
    """Put a key's validation errors (``services.apikey_access``) on the form's fields."""
    for field, messages_ in exc.message_dict.items():
        name = _ACCESS_FIELDS.get(field)
        form.add_error(name, messages_)


class IssueKeyForm(forms.Form):
    name = forms.CharField(max_length=255, required=False, help_text="A label, e.g. 'web app'.")
    # Bounded so that the expiry stays a date Python can represent (a larger one is a crash).
    expires_in_days = forms.IntegerField(
        min_value=1,
        max_value=services.MAX_EXPIRY_DAYS,
        required=False,
        help_text="Leave empty for a key that does not expire.",
    )
    kind = forms.ChoiceField(
        choices=KeyKind.choices,
        initial=KeyKind.SECRET,
        required=False,  # secret when not sent
        widget=forms.RadioSelect,
        help_text="Publishable keys (petstore_pub_…) are read-only and bound to web origins, "
        "for browser widgets; secret keys belong on servers.",
    )
    scopes = forms.MultipleChoiceField(
        choices=Scope.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="None ticked: every scope but categories:write for a secret key, pets:read "
        "for a publishable one.",
    )
    origins = OriginsField(required=False, help_text=_ORIGINS_HELP)

    def access(self) -> dict[str, Any]:
        """The kind, scopes and origins chosen, as ``services.apikey_issue`` takes them."""
        return {
            "kind": self.cleaned_data["kind"] or KeyKind.SECRET,
            "scopes": self.cleaned_data["scopes"] or None,
            "origins": self.cleaned_data["origins"],
        }

    def clean(self) -> dict[str, Any] | None:
        cleaned = super().clean()
        if not self.errors:
            try:
                services.apikey_access(**self.access())
            except ValidationError as exc:
                access_errors(self, exc)
        return cleaned


class RotateForm(forms.Form):
    grace_hours = forms.IntegerField(
        min_value=0,
        max_value=24 * 90,
        initial=DEFAULT_GRACE_HOURS,
        help_text="The old keys keep working this long, so that clients can switch over.",
    )
    kind = forms.ChoiceField(
        choices=[("", "Keep each key's kind"), *KeyKind.choices],
        required=False,
        help_text="The replacements' kind.",
    )
    scopes = forms.MultipleChoiceField(
        choices=Scope.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="None ticked: each replacement keeps its key's scopes.",
    )
    origins = OriginsField(
        required=False, help_text="Empty: each replacement keeps its key's origins."
    )

    def grace(self) -> timedelta:
        """How long the old keys keep working."""
        return timedelta(hours=self.cleaned_data["grace_hours"])

    def changes(self) -> dict[str, Any]:
        """What the replacements change, as ``services.apikey_rotate`` takes it (None: keep)."""
        return {
            "kind": self.cleaned_data["kind"] or None,
            "scopes": self.cleaned_data["scopes"] or None,
            "origins": self.cleaned_data["origins"] or None,
        }


class ApiKeyChangeForm(forms.ModelForm):
    """A key's scopes and origins, edited; saved with ``save()``, so that every process reads
    the key again on its next request (apikeys.signals)."""

    scopes = forms.MultipleChoiceField(choices=Scope.choices, widget=forms.CheckboxSelectMultiple)
    allowed_origins = OriginsField(required=False, label="Origins", help_text=_ORIGINS_HELP)

    class Meta:
        model = ApiKey
        fields = ("name", "expires_at", "scopes", "allowed_origins")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.initial["scopes"] = self.instance.scope_list
            self.initial["allowed_origins"] = "\n".join(self.instance.origin_list)

    def clean_scopes(self) -> str:
        return " ".join(sorted(set(self.cleaned_data["scopes"])))

    def clean_allowed_origins(self) -> str:
        return " ".join(self.cleaned_data["allowed_origins"])
