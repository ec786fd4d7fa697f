"""The hour's limit on Plan and Account, as the newcomer declares it in
apikeys/models/accounts.py: added to those models here, so that only this app's tests see it."""

from django.db import models

from apikeys.models import Account, Plan

Plan.add_to_class("requests_per_hour", models.PositiveIntegerField(null=True, blank=True))
Account.add_to_class(
    "custom_requests_per_hour",
    models.PositiveIntegerField(
        null=True, blank=True, help_text="Enterprise only: requests per hour."
    ),
)
