"""One entry of the trail: who did what to which object, from where and when."""

from __future__ import annotations

from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils import timezone


class Entry(models.Model):
    """Written by the services that make the change, in its transaction; never changed after."""

    at = models.DateTimeField("when", default=timezone.now, editable=False)
    # A staff member's username, ``key:<prefix>``, ``command:<name>`` or ``system``.
    actor = models.CharField(max_length=160, editable=False)
    address = models.CharField(max_length=64, blank=True, editable=False)
    action = models.CharField(max_length=64, editable=False)
    target_type = models.CharField("object type", max_length=100, blank=True, editable=False)
    target_id = models.CharField("object id", max_length=64, blank=True, editable=False)
    target_repr = models.CharField("object", max_length=200, blank=True, editable=False)
    # {field: [before, after]}, of safe fields only (audit.services.record refuses the others).
    changes = models.JSONField(default=dict, encoder=DjangoJSONEncoder, editable=False)

    class Meta:
        ordering = ("-at", "-id")
        verbose_name = "trail entry"
        verbose_name_plural = "trail"
        indexes = [
            models.Index(fields=("at",), name="audit_entry_at_idx"),
            models.Index(fields=("target_type", "target_id"), name="audit_entry_target_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.actor} {self.action} {self.target_repr}".strip()
